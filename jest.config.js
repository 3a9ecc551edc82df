const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Two test files at a time even on two cores, where jest's own choice is one, in band: most of a
  // file's time is spent waiting (for projections to catch up, a child process, a timer), and in band
  // a core sat idle through every wait (docs/performance.md, "The test run").
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // src too, so that `jest --findRelatedTests src/...` finds the tests of a source file.
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  // The reliability suite runs alone, with its own config (jest.reliability.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }],
    // The OTLP exporter loads node:http with import(), which jest's CommonJS sandbox refuses
    // without --experimental-vm-modules: compiled to require(), it runs under jest as it does in Node.
    '/node_modules/@opentelemetry/otlp-exporter-base/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' } }],
    // openid-client and what it imports, and otplib's base32 and hashes, are ES modules only: compiled
    // to CommonJS, as Node 20's require(esm) loads them.
    '/node_modules/(openid-client|oauth4webapi|jose|@scure/base|@noble/hashes)/.+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [
    // otplib's plugins keep their own copy of @noble/hashes, nested under theirs.
    '/node_modules/(?!(@opentelemetry/otlp-exporter-base|openid-client|oauth4webapi|jose|@scure/base|@noble/hashes)/)(?!.*/node_modules/(@scure/base|@noble/hashes)/)',
  ],
  testTimeout: 20000,
  setupFiles: ['<rootDir>/test/support/install-events.ts', '<rootDir>/test/support/no-fixed-ports.js'],
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
  // As the reliability run does: after the last test, the process may never end (a native client's
  // threads held it spinning in FreeEnvironment after 1,993 tests had passed), and CI must end.
  forceExit: true,
};
