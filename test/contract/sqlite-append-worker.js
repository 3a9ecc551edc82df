/**
 * One thread of the cross-thread race in sqlite.test.ts: opens its own connection, waits at the
 * shared gate, then appends through the real SqliteEventStore and reports the outcome.
 */
const { parentPort, threadId, workerData } = require('node:worker_threads');
require('../support/load-ts');
const { openDatabase } = require('../../src/stores/sqlite/database');
const { SqliteEventStore } = require('../../src/stores/sqlite/event-store');

const { file, stream, expected, gate } = workerData;
const db = openDatabase(file);
const store = new SqliteEventStore(db);
const event = {
  type: 'Raced',
  data: { threadId },
  metadata: { actor: { kind: 'system', id: null }, request_id: `thread-${threadId}`, time: new Date().toISOString() },
};

parentPort.postMessage('ready');
// Blocks this thread until the test releases every worker at once.
Atomics.wait(new Int32Array(gate), 0, 0);

store
  .append(stream, [event], expected)
  .then(
    (result) => ({ ok: true, threadId, result }),
    (error) => ({ ok: false, threadId, name: error.name, actual: error.actual }),
  )
  .then((outcome) => parentPort.postMessage(outcome))
  .finally(() => store.close().then(() => db.close()));
