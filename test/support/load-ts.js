/**
 * Lets plain Node require this repository's TypeScript sources, for code that runs outside jest's
 * transform: worker threads and child processes started by tests. Nothing else in the dependency
 * tree can load TypeScript on Node 20 (no ts-node, no tsx, no type stripping before Node 22), so
 * this compiles each .ts file in memory with @swc/core, the compiler jest already uses.
 */
const Module = require('node:module');
const { transformSync } = require('@swc/core');
const { readFileSync } = require('node:fs');

// Registering the extension also makes extensionless relative imports resolve to .ts files.
Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
