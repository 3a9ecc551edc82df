import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * A function a newcomer reads in one pass (issue 48): eslint's cyclomatic complexity, at most 12.
 * The files below hold a function over it today. Each is capped at its own figure, so it can
 * shrink but not grow, with why it is not split yet. Their files are not edited here: src/access,
 * src/audit, src/stores and src/shared/http are being changed on other branches, and a kernel
 * change belongs in a branch of its own.
 */
const MAX_COMPLEXITY = 12;
const COMPLEXITY_EXCEPTIONS = [
  // file, its largest complexity today, and why it stays
  ['src/stores/eventstoredb/subscription.ts', 27, 'followAll: resubscription, back-off and head check in one async generator; stores are being changed on another branch'],
  ['src/stores/config.ts', 15, 'checkEventStoreOptions and checkMongoUrl check one URL option per condition; stores are being changed on another branch'],
  ['src/stores/mongodb/outage.ts', 15, 'isMongoOutage lists the driver errors that mean an outage, one condition each; stores are being changed on another branch'],
  ['src/shared/http/console.ts', 14, "the console's static-file middleware: redirect, asset, deep link; shared/http is being changed on another branch"],
  ['src/shared/http/errors.ts', 14, "fromBodyParser maps the body parser's statuses; the error mapping is being changed on another branch"],
  ['src/stores/sqlite/event-store.ts', 14, 'subscribeAll: head check, polling and stop in one async generator; stores are being changed on another branch'],
  ['src/shared/http/endpoints.ts', 14, 'mountEndpoints adds each check an endpoint declaration implies (the member-write limit and idempotency keys added theirs); to be split by kind of check'],
  ['src/shared/projections/rebuild.ts', 13, 'replay batches, flushes and reports progress in one loop; a kernel change for its own branch'],
];

/**
 * A file a newcomer reads in one sitting, with one reason to change: at most 300 lines, blank lines
 * and comments counted (Prettier's layout makes lines shorter, so files grow longer). The test
 * files below are over it today, each capped at its length so it can shrink but not grow; each is
 * to be split by the behaviours it tests, as test/credential/decider*.test.ts and
 * test/contract/sqlite*.test.ts were.
 */
const MAX_LINES = 300;
const MAX_LINES_EXCEPTIONS = [
  // file, its length today
  ['test/access/groups-and-admins.test.ts', 315],
  ['test/addon/http/application-center-actions.test.ts', 416],
  ['test/audit/http/audit-proof.test.ts', 611],
  ['test/audit/http/history.test.ts', 353],
  ['test/audit/proof/signed-checkpoints.test.ts', 304],
  ['test/contract/document-store.contract.ts', 355],
  ['test/contract/event-store.contract.ts', 367],
  ['test/credential/http/credential-refusals.test.ts', 471],
  ['test/credential/projections.test.ts', 478],
  ['test/e2e/console.e2e.ts', 328],
  ['test/member/http/membership.test.ts', 497],
  ['test/reliability/fuzz.test.ts', 516],
  ['test/reliability/support/clients.ts', 404],
  ['test/reliability/support/hostile.ts', 356],
  ['test/shared/http/openapi.test.ts', 345],
  ['test/shared/projections/rebuild-equality.test.ts', 404],
  ['test/support/kurrentdb-stand-in.ts', 355],
  ['web/src/admin/credential-queue.test.tsx', 312],
];
const maxLines = (max) => ['error', { max, skipBlankLines: false, skipComments: false }];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'web/dist/', 'web/generated/', 'test-results/', 'playwright-report/'] },
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
  ...COMPLEXITY_EXCEPTIONS.map(([file, max]) => ({ files: [file], rules: { complexity: ['error', max] } })),
  { files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'test/**/*.ts', 'bench/**/*.ts'], rules: { 'max-lines': maxLines(MAX_LINES) } },
  ...MAX_LINES_EXCEPTIONS.map(([file, max]) => ({ files: [file], rules: { 'max-lines': maxLines(max) } })),
);
