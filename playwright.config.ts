import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the web console against the real service (test/e2e/service.ts starts it).
 * Chromium is Debian's (scripts/ensure-chromium.sh installs it): nothing downloads a browser.
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/e2e',
  globalSetup: './test/e2e/service.ts',
  // One service, one data directory: the stories run in order on two cores.
  workers: 1,
  fullyParallel: false,
  // A story's budget, not a measure of speed: on two cores shared with other work (a load of 20) the
  // longer stories, each screen checked by axe, took over a minute in the full run and were cut short.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./test/e2e/count-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // The network here is closed: no update checks, no sync, no QUIC probes.
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    // The auditor's "as of" is typed in the browser's local time: UTC keeps the arithmetic plain.
    timezoneId: 'UTC',
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
