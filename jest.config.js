/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The reliability suite runs alone, with its own config (jest.reliability.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 20000,
  setupFiles: ['<rootDir>/test/support/no-fixed-ports.js'],
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
