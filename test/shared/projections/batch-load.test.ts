import { setTimeout as sleep } from 'node:timers/promises';
import { ProjectionBatch } from '../../../src/shared/projections/batch';
import { DocumentStore, RecordedEvent } from '../../../src/stores/ports';
import { streamCounter } from './lifecycle-support';

const ROUND_TRIP_MS = 10;

/** A document store at a network's distance: every read takes a round trip; it counts the reads in flight. */
function distantStore() {
  let inFlight = 0;
  let most = 0;
  const documents = {
    get: async () => {
      most = Math.max(most, ++inFlight);
      await sleep(ROUND_TRIP_MS);
      inFlight--;
      return null;
    },
  } as unknown as DocumentStore;
  return { documents, most: () => most };
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
  it('reads them a bounded number at a time, not one round trip per document', async () => {
    const store = distantStore();
    const batch = new ProjectionBatch(store.documents, streamCounter, 'stream_counts');
    const events = Array.from({ length: 200 }, (_, i) => eventOn(`s-${i}`, i + 1));
    const started = Date.now();
    await batch.load(events);
    // 200 documents, 32 at a time: 7 round trips, where one at a time would take 200.
    expect(Date.now() - started).toBeLessThan(50 * ROUND_TRIP_MS);
    expect(store.most()).toBe(32);
    for (const event of events) expect(batch.apply(event)).toBe(true);
  });
});
