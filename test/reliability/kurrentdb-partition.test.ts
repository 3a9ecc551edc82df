import { setTimeout as sleep } from 'node:timers/promises';
import { SourceContact } from '../../src/shared/projections/staleness';
import { EventStoreDbEventStore, type EventStoreDbOptions } from '../../src/stores/eventstoredb/event-store';
import { encodePosition } from '../../src/stores/eventstoredb/positions';
import { LIVENESS_PROBE } from '../../src/stores/eventstoredb/subscription';
import { InvalidPosition, START, StoreUnavailable, type RecordedEvent } from '../../src/stores/ports';
import { blackHole } from '../support/tcp-faults';
import { Opened, note } from './support/kurrentdb-fixture';

/**
 * Issue 32, N4 and N7: reads ask the leader, a position refused after a failover is retried
 * instead of failing for good, and a silent partition is noticed within a stated time. The peer
 * is a stand-in (test/support/kurrentdb-stand-in.ts): it checks client behaviour only, not a
 * KurrentDB server, and its "lagging node" is a log that has not reached the checkpoint yet.
 */
const opened = new Opened({ operationTimeoutMs: 1_000 });
afterEach(() => opened.close());
const storeOn = (url: string, options: EventStoreDbOptions = {}) => opened.storeOn(url, options);
const standIn = () => opened.standIn();
const event = note;

function follow(store: EventStoreDbEventStore, from: string) {
  const stop = new AbortController();
  const delivered: RecordedEvent[] = [];
  const dropped: number[] = [];
  const contact = new SourceContact(1_000);
  const observer = {
    onLive: () => contact.observer.onLive?.(),
    onDropped: (error: unknown, wait: number) => {
      dropped.push(Date.now());
      contact.observer.onDropped?.(error, wait);
    },
  };
  const done = (async () => {
    for await (const e of store.subscribeAll(from, stop.signal, observer)) delivered.push(e);
  })();
  return { delivered, dropped, contact, done, stop: async () => (stop.abort(), done) };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await sleep(10);
  }
  return Date.now() - started;
}

describe('KurrentDB failover and partitions (real client, stand-in peer)', () => {
  it('asks the leader on every read and subscription', async () => {
    const peer = await standIn();
    const store = storeOn(peer.url());
    await store.append('note-1', [event()], 'any');
    await store.readStream('note-1');
    await store.readAll(START, 10);
    await store.headPosition();
    const following = follow(store, START);
    await until(() => following.delivered.length === 1);
    await following.stop();
    // readStream, readAll, headPosition (native bridge) and the subscription (grpc-js).
    expect(peer.leaderReads.length).toBeGreaterThanOrEqual(4);
    expect(peer.leaderReads.every(Boolean)).toBe(true);
  });

  it("a checkpoint ahead of a lagging node's log is retried, and followed once the log has it", async () => {
    const peer = await standIn();
    const store = storeOn(peer.url());
    for (let i = 0; i < 2; i++) await store.append('note-1', [event()], 'any');
    // The checkpoint of the 4th event, which this node has not replicated yet.
    const checkpoint = encodePosition({ commit: 400n, prepare: 400n });
    const following = follow(store, checkpoint);
    await until(() => following.dropped.length >= 2);
    for (let i = 0; i < 3; i++) await store.append('note-1', [event()], 'any');
    await until(() => following.delivered.length === 1);
    await following.stop();
    expect(following.delivered.map((e) => e.revision)).toEqual([4]);
  });

  it("fails for good once a refused checkpoint outlasts the grace: another database's", async () => {
    const peer = await standIn();
    const store = storeOn(peer.url(), { refusalGraceMs: 500 });
    await store.append('note-1', [event()], 'any');
    const following = follow(store, encodePosition({ commit: 900n, prepare: 900n }));
    await expect(following.done).rejects.toThrow(InvalidPosition);
  });

  it(`notices a silent partition within the probe's ${LIVENESS_PROBE.everyMs} + ${LIVENESS_PROBE.timeoutMs} ms, and the key ring stops vouching the staleness bound later`, async () => {
    const peer = await standIn();
    const store = storeOn(peer.url());
    await store.append('note-1', [event()], 'any');
    const following = follow(store, START);
    await until(() => following.delivered.length === 1);
    // Longer than a probe period: the probe has been answered at least once.
    await sleep(LIVENESS_PROBE.everyMs + 200);
    const partitioned = Date.now();
    peer.proxy.stall();
    const detected = await until(() => following.dropped.length > 0);
    const refused = await until(() => !following.contact.vouches());
    process.stdout.write(
      `silent partition: drop reported after ${detected} ms, key ring refused ${Date.now() - partitioned} ms after the partition (staleness 1000 ms)\n`,
    );
    expect(detected).toBeLessThanOrEqual(LIVENESS_PROBE.everyMs + LIVENESS_PROBE.timeoutMs + 500);
    expect(detected + refused).toBeLessThanOrEqual(LIVENESS_PROBE.everyMs + LIVENESS_PROBE.timeoutMs + 1_000 + 600);
    await following.stop();
  });

  it('a black hole (accepts, never answers) is 503 store_unavailable within the time limit', async () => {
    const hole = opened.add(await blackHole());
    const store = storeOn(`kurrentdb://127.0.0.1:${hole.port}?tls=false`, {
      retry: {
        policy: { attempts: 2, initialMs: 10, maxMs: 10, jitter: 'full' },
        random: () => 0,
        sleep: (ms) => sleep(ms),
      },
    });
    const started = Date.now();
    await expect(store.readStream('note-1')).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.append('note-1', [event()], 'any')).rejects.toBeInstanceOf(StoreUnavailable);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
