// @ts-check
/**
 * The thread of scratch-writer.ts: stores a rebuild's documents on its own connection while the
 * rebuild applies the next events. Plain JavaScript, so that Node loads it as it is, from the
 * sources under jest as from dist/.
 */
const { parentPort, workerData } = require('node:worker_threads');
const BetterSqlite3 = require('better-sqlite3');

/** @type {{ file: string } & import('./scratch-writer').ScratchThreadSettings} */
const { file, upsert, checkpointPages, busyTimeoutMs } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

const db = new BetterSqlite3(file, { timeout: busyTimeoutMs });
// Scratch: no fsync per commit; the swap that puts a rebuild in place is the durable write.
db.pragma('synchronous = NORMAL');
db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
const statement = db.prepare(upsert);
const store = db.transaction((/** @type {[string, string, string | null, string][]} */ rows) => {
  for (const row of rows) statement.run(row);
});

/** Each message is a write to store, answered in order by null or what went wrong; null closes. */
port.on('message', (/** @type {[string, string, string | null, string][] | null} */ rows) => {
  if (rows === null) {
    db.close();
    port.close();
    return;
  }
  try {
    store.immediate(rows);
    port.postMessage(null);
  } catch (err) {
    port.postMessage(err instanceof Error ? err.message : String(err));
  }
});
