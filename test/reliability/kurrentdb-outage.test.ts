import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { refusalFor } from '../../src/shared/http/errors';
import { EventStoreDbEventStore } from '../../src/stores/eventstoredb/event-store';
import { START, type RecordedEvent } from '../../src/stores/ports';
import { freePort } from '../support/service-process';
import { Opened, note } from './support/kurrentdb-fixture';

/**
 * Issue 32, N1: every KurrentDB failure a client can retry reaches the caller as 503
 * store_unavailable with Retry-After, on reads and appends alike: through the real client, the
 * service's adapter and its HTTP error mapping. The peer is a stand-in
 * (test/support/kurrentdb-stand-in.ts) that checks client behaviour only, not a KurrentDB server.
 */
const silent = pino({ level: 'silent' });
/** Short limits so that a stall costs a test seconds, not the production 10 s per attempt. */
const LIMITS = {
  operationTimeoutMs: 800,
  retry: {
    policy: { attempts: 2, initialMs: 10, maxMs: 10, jitter: 'full' as const },
    random: () => 0,
    sleep: (ms: number) => sleep(ms),
  },
};

const opened = new Opened(LIMITS);
afterEach(() => opened.close());
const storeOn = (url: string) => opened.storeOn(url);
const standIn = () => opened.standIn();
const event = note;

/** What the service would answer for each operation a command or a query makes, by operation. */
async function answers(store: EventStoreDbEventStore) {
  const operations: Record<string, () => Promise<unknown>> = {
    readStream: () => store.readStream('note-1'),
    readAll: () => store.readAll(START, 10),
    headPosition: () => store.headPosition(),
    append: () => store.append('note-1', [event()], 'any'),
  };
  const seen: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(operations)) {
    seen[name] = await operation().then(
      () => 'answered',
      (error: unknown) => {
        const refusal = refusalFor(error, () => silent);
        return { status: refusal.status, error: refusal.error, retryAfter: refusal.headers?.['Retry-After'] };
      },
    );
  }
  return seen;
}

const UNAVAILABLE = { status: 503, error: 'store_unavailable', retryAfter: '5' };
const ALL_UNAVAILABLE = {
  readStream: UNAVAILABLE,
  readAll: UNAVAILABLE,
  headPosition: UNAVAILABLE,
  append: UNAVAILABLE,
};
const ALL_ANSWERED = { readStream: 'answered', readAll: 'answered', headPosition: 'answered', append: 'answered' };

describe('KurrentDB outages as the service answers them (real client, stand-in peer)', () => {
  it('down at start: nothing listens, and every read and append is 503 store_unavailable with Retry-After', async () => {
    const store = storeOn(`kurrentdb://127.0.0.1:${await freePort()}?tls=false`);
    expect(await answers(store)).toEqual(ALL_UNAVAILABLE);
  });

  it('down mid-traffic, then up again: 503 while it is down, answers again on the same client once it is back', async () => {
    const peer = await standIn();
    const store = storeOn(peer.url());
    expect(await answers(store)).toEqual(ALL_ANSWERED);
    await peer.proxy.down();
    expect(await answers(store)).toEqual(ALL_UNAVAILABLE);
    await peer.proxy.up();
    expect(await answers(store)).toEqual(ALL_ANSWERED);
  });

  it('stalled (accepts, never answers), then dead: 503 within the time limits, then at once', async () => {
    const peer = await standIn();
    const store = storeOn(peer.url());
    expect(await answers(store)).toEqual(ALL_ANSWERED);
    peer.proxy.stall();
    let started = Date.now();
    expect(await answers(store)).toEqual(ALL_UNAVAILABLE);
    // Three reads of one attempt each and an append of two, each bounded by the 800 ms limit.
    expect(Date.now() - started).toBeLessThan(8_000);
    await peer.proxy.down();
    started = Date.now();
    expect(await answers(store)).toEqual(ALL_UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('slow: answered while the delay is within the time limit, 503 store_unavailable past it', async () => {
    const peer = await standIn();
    const store = storeOn(peer.url());
    expect(await answers(store)).toEqual(ALL_ANSWERED);
    peer.proxy.slow(100);
    expect(await answers(store)).toEqual(ALL_ANSWERED);
    peer.proxy.slow(1_500);
    expect(await answers(store)).toEqual(ALL_UNAVAILABLE);
  });

  it('reconnect and catch-up: a subscription cut mid-stream resumes after the last event it delivered, with no gap and no repeat', async () => {
    const peer = await standIn();
    const writer = storeOn(peer.url());
    const reader = storeOn(peer.url());
    for (let i = 0; i < 3; i++) await writer.append('note-1', [event()], 'any');
    const stop = new AbortController();
    const dropped: unknown[] = [];
    const delivered: RecordedEvent[] = [];
    const following = (async () => {
      for await (const e of reader.subscribeAll(START, stop.signal, { onDropped: (error) => dropped.push(error) }))
        delivered.push(e);
    })();
    await until(() => delivered.length === 3);
    peer.proxy.cut();
    await peer.proxy.down();
    await until(() => dropped.length > 0);
    await peer.proxy.up();
    for (let i = 0; i < 3; i++) await writer.append('note-1', [event()], 'any');
    await until(() => delivered.length >= 6);
    stop.abort();
    await following;
    expect(delivered.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}
