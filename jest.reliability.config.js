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
};
