/**
 * Fakes the clock alone, for the service in the test's process as for the test: Date stands still
 * until the test moves it (jest.setSystemTime), so a window or an expiry passes at once and nothing
 * is due before the test says so. Timers, I/O and eventually() (perf_hooks) keep real time, so the
 * service's loops, SQLite and HTTP run as they do in production. Undo with jest.useRealTimers().
 */
export function stopTheClock(): void {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
}
