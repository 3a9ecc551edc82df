/**
 * A jest reporter for CI: with TEST_COUNTS_FILE set, appends this run's counts as one JSON line, so
 * that .ci/run can sum the two jest runs `npm test` makes (the default suite, then the reliability
 * suite) into its one closing line. `--json` would only reach the last of them.
 */
const { appendFileSync } = require('node:fs');

class CountReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_COUNTS_FILE;
    if (!file) return;
    const counts = {
      passed: results.numPassedTests,
      // A suite that failed to load or crashed has no failed test, yet it failed.
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    appendFileSync(file, `${JSON.stringify(counts)}\n`);
  }
}

module.exports = CountReporter;
