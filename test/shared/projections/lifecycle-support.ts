import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { knownEventTypes } from '../../../src/shared/domain/events';
import { documentsOf, evolveOrExplain, Projection } from '../../../src/shared/projections/projection';
import { DocumentStore, EventStore, START, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { Append } from '../../../bench/realistic-log';

/**
 * Counts the events of every stream, with their revisions in the order applied: an event applied
 * twice or lost shows as a wrong count or a revision out of place.
 */
export const streamCounter: Projection<{ count: number; revisions: number[] }> = {
  name: 'stream_counter',
  version: 1,
  collection: { name: 'stream_counts', indexes: [] },
  handles: knownEventTypes(),
  documentIds: (event) => [event.stream],
  evolve: (doc, event) => {
    const revisions = [...(doc?.revisions ?? []), event.revision];
    return { count: revisions.length, revisions };
  },
};

export interface Scratch {
  dir: string;
  stores: Stores;
  close(): Promise<void>;
}

/** The embedded stores on a fresh directory, removed again by close(). */
export function scratchStores(prefix: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const stores = openSqliteStores(dir);
  return {
    dir,
    stores,
    async close() {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function appendAll(events: EventStore, appends: Iterable<Append>): Promise<void> {
  for (const { stream, events: batch, expected } of appends) await events.append(stream, batch, expected);
}

/** Every stored document of each projection, by id: what a reader can see. */
export async function snapshot(
  documents: DocumentStore,
  projections: Projection[],
): Promise<Record<string, Record<string, unknown>>> {
  const result: Record<string, Record<string, unknown>> = {};
  for (const p of projections) {
    const found = await documents.find(p.collection.name, {});
    result[p.collection.name] = Object.fromEntries(found.map((d) => [d.id, { doc: d.doc, position: d.position }]));
  }
  return result;
}

/**
 * The read models as the whole log folds into them, computed in memory with nothing of the
 * runner, batches or stores: the oracle the stored read models are compared with.
 */
export async function folded(
  events: EventStore,
  projections: Projection[],
): Promise<Record<string, Record<string, unknown>>> {
  const result: Record<string, Record<string, unknown>> = {};
  const docs = new Map(projections.map((p) => [p, new Map<string, { doc: object; position: string }>()]));
  for (const event of await events.readAll(START, 10_000_000)) {
    for (const p of projections) {
      const byId = docs.get(p)!;
      for (const id of documentsOf(p, event)) {
        const doc = evolveOrExplain(p, byId.get(id)?.doc ?? null, event);
        if (doc) byId.set(id, { doc, position: event.position });
        else byId.delete(id);
      }
    }
  }
  for (const [p, byId] of docs) result[p.collection.name] = Object.fromEntries(byId);
  return result;
}
