/**
 * Appends this Playwright run's counts to TEST_COUNTS_FILE as one JSON line, as the jest runs do
 * (test/support/count-reporter.js), so that CI's closing line counts the browser tests too.
 */
import { appendFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class CountReporter implements Reporter {
  private readonly outcomes = new Map<TestCase, TestResult['status']>();

  onTestEnd(test: TestCase, result: TestResult): void {
    // A retried test counts once, by its last attempt.
    this.outcomes.set(test, result.status);
  }

  onEnd(result: FullResult): void {
    const file = process.env.TEST_COUNTS_FILE;
    if (!file) return;
    const statuses = [...this.outcomes.values()];
    const passed = statuses.filter((s) => s === 'passed').length;
    const skipped = statuses.filter((s) => s === 'skipped').length;
    // A run that failed before any test (global setup) has no failed test, yet it failed.
    const failed = statuses.length - passed - skipped || (result.status === 'passed' ? 0 : 1);
    appendFileSync(file, `${JSON.stringify({ passed, failed, skipped })}\n`);
  }
}
