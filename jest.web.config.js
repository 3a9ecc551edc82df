/**
 * Component tests of the web console: jsdom, Preact's JSX, the same swc transform as the server's
 * suite. Separate from jest.config.js so that the server's tests keep their node environment.
 */
const server = require('./jest.config.js');

// The console's tests read the service's own code (the audit proofs, the registry's wording), which
// loads packages that are ES modules only: they are compiled as the server's suite compiles them.
const { '^.+\\.ts$': _serverTypeScript, ...esModulePackages } = server.transform;

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: '<rootDir>/web/test/jsdom-with-fetch.js',
  // jsdom would pick the packages' browser builds, which are ES modules jest cannot require on Node 20.
  testEnvironmentOptions: { customExportConditions: ['node', 'require', 'default'] },
  roots: ['<rootDir>/web/src'],
  testMatch: ['**/*.test.tsx'],
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        },
      },
    ],
    ...esModulePackages,
  },
  transformIgnorePatterns: server.transformIgnorePatterns,
  moduleNameMapper: { '\\.css$': '<rootDir>/web/test/no-style.js' },
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
