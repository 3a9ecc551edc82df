import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  START,
  WrongExpectedVersion,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '../../src/stores/ports';
import { eventIdContract } from './event-ids.contract';
import { appendDecided, streamEnd } from '../../src/shared/commands/context';
import { chainFieldsOf, digestOf } from '../../src/shared/domain/chain';
import { StoreFixture, useStore } from './fixture';

/** Longer than any adapter's poll interval: a subscription has surely caught up and is waiting. */
const CATCH_UP_MS = 250;
/** Upper bound for a live event to reach a subscription before the test gives up. */
const DELIVERY_LIMIT_MS = 5000;

function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actor: { kind: 'system', id: null },
    request_id: randomUUID(),
    time: new Date().toISOString(),
    ...overrides,
  };
}

function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return { type, data, metadata: metadata() };
}

/** A stream no other test (or other user of a shared server) writes to. */
function newStream(): string {
  return `contract-${randomUUID()}`;
}

/** Fails with a readable diff unless the positions are strictly increasing. */
function expectIncreasing(positions: Position[]): void {
  expect(positions).toEqual([...new Set(positions)].sort());
}

async function wrongExpectedVersion(append: Promise<unknown>): Promise<WrongExpectedVersion> {
  const error = await append.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersion);
  return error as WrongExpectedVersion;
}

/** The stream's events among `events`: other writers may share the global log. */
function of(stream: string, events: RecordedEvent[]): RecordedEvent[] {
  return events.filter((e) => e.stream === stream);
}

/**
 * A subscription from `from` that collects the first `count` events of `stream`, giving up
 * after DELIVERY_LIMIT_MS so that a broken adapter fails the test instead of hanging it.
 */
function collect(store: EventStore, from: Position, stream: string, count: number): Promise<RecordedEvent[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), DELIVERY_LIMIT_MS);
  return (async () => {
    const collected: RecordedEvent[] = [];
    try {
      for await (const e of store.subscribeAll(from, abort.signal)) {
        if (e.stream === stream) collected.push(e);
        if (collected.length === count) break;
      }
      return collected;
    } finally {
      clearTimeout(timer);
    }
  })();
}

/** Resolves true when the promise settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function eventStoreContract(open: () => Promise<StoreFixture<EventStore>>): void {
  const store = useStore(open);
  eventIdContract(store);

  describe('append and expected revision', () => {
    it('appends to a new stream with no_stream', async () => {
      const stream = newStream();
      const head = await store().headPosition();
      const result = await store().append(stream, [event('A'), event('B')], 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);
      expectIncreasing([head, result.position]);
      const events = await store().readStream(stream);
      expect(events.map((e) => [e.type, e.revision])).toEqual([
        ['A', 0],
        ['B', 1],
      ]);
      expect(events[1]?.position).toBe(result.position);
    });

    it('rejects no_stream on an existing stream, with the actual revision', async () => {
      const stream = newStream();
      await store().append(stream, [event('A'), event('B')], 'no_stream');
      const error = await wrongExpectedVersion(store().append(stream, [event('C')], 'no_stream'));
      expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 1 });
    });

    it('accepts stream_exists only when the stream exists', async () => {
      const stream = newStream();
      const error = await wrongExpectedVersion(store().append(stream, [event('A')], 'stream_exists'));
      expect(error).toMatchObject({ stream, expected: 'stream_exists', actual: 'no_stream' });
      await store().append(stream, [event('A')], 'no_stream');
      await expect(store().append(stream, [event('B')], 'stream_exists')).resolves.toMatchObject({
        nextExpectedRevision: 1,
      });
    });

    it('accepts the exact last revision and rejects any other', async () => {
      const stream = newStream();
      const first = await store().append(stream, [event('A'), event('B')], 'no_stream');
      const second = await store().append(stream, [event('C')], first.nextExpectedRevision);
      expect(second.nextExpectedRevision).toBe(2);
      for (const stale of [0, 1, 3]) {
        const error = await wrongExpectedVersion(store().append(stream, [event('D')], stale));
        expect(error).toMatchObject({ stream, expected: stale, actual: 2 });
      }
    });

    it('rejects an exact revision on a missing stream', async () => {
      const stream = newStream();
      const error = await wrongExpectedVersion(store().append(stream, [event('A')], 0));
      expect(error).toMatchObject({ expected: 0, actual: 'no_stream' });
    });

    it('accepts any on a missing and on an existing stream', async () => {
      const stream = newStream();
      await expect(store().append(stream, [event('A')], 'any')).resolves.toMatchObject({ nextExpectedRevision: 0 });
      await expect(store().append(stream, [event('B')], 'any')).resolves.toMatchObject({ nextExpectedRevision: 1 });
    });

    it('writes nothing when the expected revision does not match', async () => {
      const stream = newStream();
      await store().append(stream, [event('A')], 'no_stream');
      const before = await store().readStream(stream);
      const head = await store().headPosition();
      await wrongExpectedVersion(store().append(stream, [event('B'), event('C')], 'no_stream'));
      await wrongExpectedVersion(store().append(stream, [event('B')], 5));
      expect(await store().readStream(stream)).toEqual(before);
      // Filtered by stream rather than comparing heads: a shared server may see other writers.
      expect(of(stream, await store().readAll(head, 1000))).toEqual([]);
    });

    it('refuses to append an empty list, and creates no stream', async () => {
      const stream = newStream();
      const error = await store()
        .append(stream, [], 'any')
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(WrongExpectedVersion);
      expect(await store().readStream(stream)).toEqual([]);
    });

    it('keeps revisions 0-based and consecutive across appends', async () => {
      const stream = newStream();
      const first = await store().append(stream, [event('A'), event('B')], 'no_stream');
      const second = await store().append(stream, [event('C'), event('D'), event('E')], first.nextExpectedRevision);
      expect([first.nextExpectedRevision, second.nextExpectedRevision]).toEqual([1, 4]);
      const events = await store().readStream(stream);
      expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      expectIncreasing(events.map((e) => e.position));
      expect(events[4]?.position).toBe(second.position);
    });

    it('lets exactly one of 20 concurrent appends with the same expected revision win', async () => {
      const stream = newStream();
      const { nextExpectedRevision } = await store().append(stream, [event('Opened')], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store().append(stream, [event('Raced', { i })], nextExpectedRevision)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(failures).toHaveLength(19);
      for (const failure of failures) expect(failure).toBeInstanceOf(WrongExpectedVersion);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'Raced']);
    });
  });

  describe('readStream', () => {
    it('reads in revision order, and backwards from the last event', async () => {
      const stream = newStream();
      await store().append(stream, [event('A'), event('B'), event('C')], 'no_stream');
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      const backwards = await store().readStream(stream, { direction: 'backwards' });
      expect(backwards.map((e) => e.type)).toEqual(['C', 'B', 'A']);
      const last = await store().readStream(stream, { direction: 'backwards', maxCount: 1 });
      expect(last.map((e) => [e.type, e.revision])).toEqual([['C', 2]]);
      const firstTwo = await store().readStream(stream, { direction: 'forwards', maxCount: 2 });
      expect(firstTwo.map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('reads a missing stream as an empty list', async () => {
      const stream = newStream();
      expect(await store().readStream(stream)).toEqual([]);
      expect(await store().readStream(stream, { direction: 'backwards', maxCount: 1 })).toEqual([]);
    });

    it('round-trips data and metadata', async () => {
      const stream = newStream();
      const data = { name: 'Zoë 🚀', count: 3, ratio: 0.5, on: false, none: null, nested: { list: [1, 'two'] } };
      const meta = metadata({ actor: { kind: 'admin', id: 7 }, reason: 'policy violation' });
      const head = await store().headPosition();
      const result = await store().append(stream, [{ type: 'Decided', data, metadata: meta }], 'no_stream');
      // The adapter draws the event's id and reads it back: webhook deliveries are known by it.
      const expected: RecordedEvent = {
        stream,
        revision: 0,
        position: result.position,
        type: 'Decided',
        data,
        metadata: meta,
        id: expect.any(String),
      };
      expect(await store().readStream(stream)).toEqual([expected]);
      expect(of(stream, await store().readAll(head, 1000))).toEqual([expected]);
    });
  });

  describe('the chain of a stream', () => {
    const ctx = {
      actor: { kind: 'admin' as const, id: 7 },
      requestId: randomUUID(),
      now: new Date(),
      reason: 'Zoë said so 🚀',
    };
    const seeded = { type: 'PlatformSeeded', data: {} };

    it('stores what the command handler chained, so that every digest recomputes and links to the one before', async () => {
      const stream = newStream();
      await appendDecided(store(), stream, [seeded, seeded], ctx, streamEnd(undefined));
      const [, second] = await store().readStream(stream);
      await appendDecided(store(), stream, [seeded], { ...ctx, requestId: randomUUID() }, streamEnd(second));
      const chain = await store().readStream(stream);
      expect(chain).toHaveLength(3);
      chain.forEach((e, i) => {
        expect(e.metadata.digest).toBe(digestOf(chainFieldsOf(e)));
        expect(e.metadata.prev_digest).toBe(i === 0 ? null : chain[i - 1]!.metadata.digest);
      });
      expect(new Set(chain.map((e) => e.metadata.digest)).size).toBe(3);
    });
  });

  describe('readAll', () => {
    it('reads the global log in commit order, strictly after `from`, up to maxCount', async () => {
      const [a, b] = [newStream(), newStream()];
      const head = await store().headPosition();
      await store().append(a, [event('A0'), event('A1')], 'no_stream');
      await store().append(b, [event('B0')], 'no_stream');
      const last = await store().append(a, [event('A2')], 1);

      const all = await store().readAll(head, 1000);
      expectIncreasing([head, ...all.map((e) => e.position)]);
      const ours = all.filter((e) => e.stream === a || e.stream === b);
      expect(ours.map((e) => e.type)).toEqual(['A0', 'A1', 'B0', 'A2']);
      expect(ours[3]?.position).toBe(last.position);
      expect((await store().headPosition()) >= last.position).toBe(true);

      const two = await store().readAll(head, 2);
      expect(two).toEqual(all.slice(0, 2));
      expect(of(a, await store().readAll(last.position, 1000))).toEqual([]);
    });

    it('resumes from a saved position with no loss and no duplicate', async () => {
      const stream = newStream();
      await store().append(stream, [event('E0'), event('E1'), event('E2'), event('E3')], 'no_stream');
      const recorded = await store().readStream(stream);
      const saved = recorded[1]?.position ?? START;
      expect(of(stream, await store().readAll(saved, 1000))).toEqual(recorded.slice(2));
    });
  });

  describe('headPosition', () => {
    it('moves to the position of the last append', async () => {
      const before = await store().headPosition();
      const result = await store().append(newStream(), [event('A')], 'no_stream');
      const after = await store().headPosition();
      expectIncreasing([before, result.position]);
      expect(after >= result.position).toBe(true);
    });
  });

  describe('subscribeAll', () => {
    it('delivers the events before and after subscribing, in order', async () => {
      const stream = newStream();
      const head = await store().headPosition();
      await store().append(stream, [event('Before')], 'no_stream');
      const received = collect(store(), head, stream, 3);
      await delay(CATCH_UP_MS);
      await store().append(stream, [event('Live1')], 0);
      await store().append(stream, [event('Live2')], 1);
      const events = await received;
      expect(events.map((e) => e.type)).toEqual(['Before', 'Live1', 'Live2']);
      expect(events).toEqual(await store().readStream(stream));
    });

    it('resumes from a saved position with no loss and no duplicate', async () => {
      const stream = newStream();
      await store().append(stream, [event('E0'), event('E1'), event('E2'), event('E3')], 'no_stream');
      const saved = (await store().readStream(stream))[1]?.position ?? START;
      const received = collect(store(), saved, stream, 3);
      await delay(CATCH_UP_MS);
      await store().append(stream, [event('E4')], 3);
      expect((await received).map((e) => e.type)).toEqual(['E2', 'E3', 'E4']);
    });

    it('ends when the consumer returns', async () => {
      const stream = newStream();
      const head = await store().headPosition();
      await store().append(stream, [event('A'), event('B')], 'no_stream');
      const iterator = store().subscribeAll(head)[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      expect(iterator.return).toBeDefined();
      expect(await iterator.return?.()).toEqual({ done: true, value: undefined });
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('ends when the signal aborts while it waits for new events', async () => {
      const abort = new AbortController();
      const subscription = store().subscribeAll(await store().headPosition(), abort.signal);
      const drained = (async () => {
        for await (const _ of subscription) {
          // Events of other writers are possible on a shared server; only the end matters.
        }
      })();
      await delay(CATCH_UP_MS);
      abort.abort();
      expect(await settlesWithin(drained, 2000)).toBe(true);
    });

    it('stops between two events when the signal aborts', async () => {
      const head = await store().headPosition();
      await store().append(newStream(), [event('A'), event('B'), event('C')], 'no_stream');
      const abort = new AbortController();
      const iterator = store().subscribeAll(head, abort.signal)[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      abort.abort();
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('delivers nothing when the signal has already aborted', async () => {
      await store().append(newStream(), [event('A')], 'no_stream');
      const iterator = store().subscribeAll(START, AbortSignal.abort())[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });
  });
}
