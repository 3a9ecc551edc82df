/**
 * One thread of the cross-thread count race in sqlite.test.ts: opens its own connection to the
 * rate-limit file, waits at the shared gate, then counts attempts through the real adapter and
 * reports how many were allowed.
 */
const { parentPort, workerData } = require('node:worker_threads');
require('../support/load-ts');
const { SqliteRateLimits } = require('../../src/stores/sqlite/rate-limits');

const { file, policy, attempts, gate } = workerData;
const rateLimits = new SqliteRateLimits(file);

rateLimits.limiter(policy).then(async (limiter) => {
  parentPort.postMessage('ready');
  // Blocks this thread until the test releases every worker at once.
  Atomics.wait(new Int32Array(gate), 0, 0);
  let allowed = 0;
  for (let i = 0; i < attempts; i++) if ((await limiter.consume('k')).allowed) allowed += 1;
  parentPort.postMessage(allowed);
  rateLimits.close();
});
