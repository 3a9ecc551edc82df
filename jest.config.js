/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // src too, so that `jest --findRelatedTests src/...` finds the tests of a source file.
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  // The reliability suite runs alone, with its own config (jest.reliability.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  setupFiles: ['<rootDir>/test/support/install-events.ts'],
  testTimeout: 20000,
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
