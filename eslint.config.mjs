import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** A function a newcomer reads in one pass (issue 48): eslint's cyclomatic complexity, at most 12, with no exception. */
const MAX_COMPLEXITY = 12;

/**
 * A file a newcomer reads in one sitting, with one reason to change: at most 300 lines, blank lines
 * and comments counted (Prettier's layout makes lines shorter, so files grow longer), with no
 * exception: a file that outgrows it is split by the behaviours it holds.
 */
const MAX_LINES = 300;
const maxLines = (max) => ['error', { max, skipBlankLines: false, skipComments: false }];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'data/',
      'web/dist/',
      'web/generated/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  { files: ['**/*.js', '**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The web console runs in the browser.
  { files: ['web/src/**'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['src/**', 'web/src/**'], rules: { complexity: ['error', MAX_COMPLEXITY] } },
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-lines': maxLines(MAX_LINES) },
  },
);
