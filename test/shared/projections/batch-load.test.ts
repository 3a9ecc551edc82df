import { ProjectionBatch } from '../../../src/shared/projections/batch';
import { StoredIds } from '../../../src/shared/projections/stored-ids';
import { DocumentStore, DocumentWrite, RecordedEvent, StoredDocument } from '../../../src/stores/ports';
import { streamCounter } from './lifecycle-support';

/** A document store that counts its reads and how many documents each asks for. */
function readCountingStore() {
  const reads: number[] = [];
  const documents = {
    getMany: async (_collection: string, ids: readonly string[]) => {
      reads.push(ids.length);
      return ids.map(() => null);
    },
  } as unknown as DocumentStore;
  return { documents, reads };
}

const eventOn = (stream: string, position: number): RecordedEvent => ({
  type: 'PlatformSeeded',
  data: {},
  metadata: { actor: { kind: 'system', id: null }, request_id: 'r', time: '2026-01-01T00:00:00.000Z' },
  stream,
  revision: 0,
  position: String(position).padStart(20, '0'),
});

describe('loading the documents of a run of events', () => {
  it('reads them many at a time, a bounded number each, not one round trip per document', async () => {
    const store = readCountingStore();
    const batch = new ProjectionBatch(store.documents, streamCounter, 'stream_counts');
    const events = Array.from({ length: 250 }, (_, i) => eventOn(`s-${i}`, i + 1));
    await batch.load(events);
    // 250 documents, 100 at a time: 3 round trips, where one at a time would take 250.
    expect(store.reads).toEqual([100, 100, 50]);
    for (const event of events) expect(batch.apply(event)).toBe(true);
  });
});

/** A document store in memory that counts the reads of each document and the writes. */
function countingStore() {
  const stored = new Map<string, StoredDocument>();
  const reads = new Map<string, number>();
  let writes = 0;
  const documents = {
    getMany: async (_collection: string, ids: readonly string[]) =>
      ids.map((id) => {
        reads.set(id, (reads.get(id) ?? 0) + 1);
        return stored.get(id) ?? null;
      }),
    write: async (batch: DocumentWrite[]) => {
      for (const { id, doc, position } of batch) {
        writes++;
        if (doc) stored.set(id, { id, doc, position });
        else stored.delete(id);
      }
    },
  } as unknown as DocumentStore;
  return { documents, stored, reads, writes: () => writes };
}

describe("a rebuild's batch, keeping a bounded number of documents", () => {
  // As members do: four streams live at a time, ten events each, then a new one takes the slot;
  // one stream is used all along; s-0, long gone, comes back once at the end.
  const log: RecordedEvent[] = [];
  const active = [0, 1, 2, 3];
  let next = active.length;
  const counts = new Map<string, number>();
  const push = (stream: string) => {
    log.push(eventOn(stream, log.length + 1));
    counts.set(stream, (counts.get(stream) ?? 0) + 1);
  };
  while (next < 40) {
    active.forEach((stream, slot) => {
      push(`s-${stream}`);
      if (counts.get(`s-${stream}`) === 10) active[slot] = next++;
    });
    push('all-along');
  }
  push('s-0');

  async function rebuild(store: ReturnType<typeof countingStore>, stored?: StoredIds) {
    const batch = new ProjectionBatch(store.documents, streamCounter, 'stream_counts__rebuild', 8, stored);
    for (let from = 0; from < log.length; from += 10) {
      const page = log.slice(from, from + 10);
      await batch.load(page);
      for (const event of page) batch.apply(event);
      await store.documents.write(batch.evict());
    }
    await store.documents.write(batch.pending());
    batch.written();
  }

  it('stores each document once, when it falls out of use or at the end, with every event applied once', async () => {
    const store = countingStore();
    await rebuild(store, new StoredIds());
    expect(new Map([...store.stored].map(([id, { doc }]) => [id, (doc as { count: number }).count]))).toEqual(counts);
    // s-0 twice: it had left memory when it came back.
    expect(store.writes()).toBe(counts.size + 1);
  });

  it('reads back only a document it stored before, when the aside was emptied for it', async () => {
    const fresh = countingStore();
    await rebuild(fresh, new StoredIds());
    expect(fresh.reads).toEqual(new Map([['s-0', 1]]));
    // Not told that the aside started empty, it reads each document on first use.
    const unknowing = countingStore();
    await rebuild(unknowing);
    expect(unknowing.reads.size).toBe(counts.size);
    expect(unknowing.stored).toEqual(fresh.stored);
  });
});

describe("the runner's batch, which keeps nothing between flushes", () => {
  const counted = (writes: DocumentWrite[]) =>
    writes.map(({ id, doc, position }) => [id, (doc as { count: number }).count, Number(position)]);

  it('hands out the same writes again until they are stored, then only what changed since', async () => {
    const store = countingStore();
    const batch = new ProjectionBatch(store.documents, streamCounter, 'stream_counts');
    const first = [eventOn('a', 1), eventOn('b', 2), eventOn('a', 3)];
    await batch.load(first);
    for (const event of first) batch.apply(event);
    // A store that failed: nothing is marked stored, and the next flush hands out the same.
    expect(counted(batch.pending())).toEqual([
      ['a', 2, 3],
      ['b', 1, 2],
    ]);
    expect(counted(batch.pending())).toEqual([
      ['a', 2, 3],
      ['b', 1, 2],
    ]);
    await store.documents.write(batch.pending());
    batch.written();
    expect(batch.pending()).toEqual([]);

    const next = [eventOn('b', 4)];
    await batch.load(next);
    batch.apply(next[0]!);
    expect(counted(batch.pending())).toEqual([['b', 2, 4]]);
    // The document was read back from the store: the count goes on from what was stored.
    expect(store.reads.get('b')).toBe(2);
  });
});

describe('the ids a rebuild stored', () => {
  it('never answers no for an id added, and mostly no for one never added', () => {
    const stored = new StoredIds();
    const added = Array.from({ length: 20_000 }, (_, i) => `${i}:scope.read`);
    for (const id of added) stored.add(id);
    expect(added.every((id) => stored.mayHave(id))).toBe(true);
    const others = Array.from({ length: 20_000 }, (_, i) => `${i + 20_000}:scope.read`);
    expect(others.filter((id) => stored.mayHave(id)).length).toBeLessThan(20);
  });
});
