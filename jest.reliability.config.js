/**
 * The reliability suite (`npm run test:reliability`): crash, fuzz and load tests that start the
 * service in child processes and keep both cores busy, so they run alone and in band, never beside
 * the default suite, whose timing they would upset.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/reliability'],
  testPathIgnorePatterns: ['/node_modules/'],
  // Each test sets its own limit from what it runs; this one catches a hang in anything else.
  testTimeout: 180000,
  // In band, the KurrentDB tests' clients live in this process, and once they have, Node's exit never
  // ends: with every test passed and every client disposed, the main thread spins in
  // FreeEnvironment -> CleanupHandles on a request the client's native bridge (@kurrent/bridge)
  // leaves pending (seen with gdb). CI's run then hung for 50 minutes; the service itself always
  // leaves through process.exit (src/shutdown.ts), which skips that clean-up.
  forceExit: true,
};
