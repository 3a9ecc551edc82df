/**
 * One thread of the cross-thread lease race in sqlite.test.ts: opens its own connection, waits at
 * the shared gate, then asks for the lease through the real SqliteLeases and reports the answer.
 */
const { parentPort, threadId, workerData } = require('node:worker_threads');
require('../support/load-ts');
const { openDatabase } = require('../../src/stores/sqlite/database');
const { SqliteLeases } = require('../../src/stores/sqlite/leases');

const { file, lease, gate } = workerData;
const db = openDatabase(file);
const leases = new SqliteLeases(db);

parentPort.postMessage('ready');
// Blocks this thread until the test releases every worker at once.
Atomics.wait(new Int32Array(gate), 0, 0);

leases
  .acquire(lease, `thread-${threadId}`, 60_000)
  .then(
    (term) => ({ threadId, term }),
    (error) => ({ threadId, error: String(error) }),
  )
  .then((outcome) => parentPort.postMessage(outcome))
  .finally(() => db.close());
