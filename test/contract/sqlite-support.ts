import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { NewEvent } from '../../src/stores/ports';

/** How many threads, each with its own connection, the SQLite race tests set against each other. */
export const THREADS = 8;

/** An event with no data, as the CLI would append it: what the SQLite tests append when only its place matters. */
export function event(type: string): NewEvent {
  return {
    type,
    data: {},
    metadata: { actor: { kind: 'cli', id: null }, request_id: randomUUID(), time: new Date().toISOString() },
  };
}

/**
 * Starts THREADS workers of `script` (beside this file), each on its own connection, holds them at one gate
 * until every one is ready, then releases them at the same moment: each worker's answer, once all have exited.
 */
export async function raceThreads<Answer>(script: string, workerData: Record<string, unknown>): Promise<Answer[]> {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from(
    { length: THREADS },
    () => new Worker(join(__dirname, script), { workerData: { ...workerData, gate: gate.buffer } }),
  );
  try {
    await Promise.all(workers.map((w) => once(w, 'message')));
    const answers = workers.map(async (w) => (await once(w, 'message'))[0] as Answer);
    const exits = workers.map((w) => once(w, 'exit'));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    const results = await Promise.all(answers);
    await Promise.all(exits);
    return results;
  } finally {
    // Releases any worker still at the gate, should one have failed before.
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
