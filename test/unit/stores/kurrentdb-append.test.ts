import { status } from '@grpc/grpc-js';
import { DeadlineExceededError, KurrentDBClient, UnavailableError } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../../src/stores/eventstoredb/event-store';
import { OperationTimedOut } from '../../../src/stores/eventstoredb/timeouts';
import { eventIds } from '../../../src/stores/event-ids';
import { StoreUnavailable, StreamDeleted, WrongExpectedVersion, type NewEvent } from '../../../src/stores/ports';
import { KurrentDbStandIn } from '../../support/kurrentdb-stand-in';

/**
 * The adapter's own behaviour around the real client's append: which failures it retries, with
 * which ids, and what it reports. The peer is a stand-in (test/support/kurrentdb-stand-in.ts) that
 * checks client behaviour only; what a real server does with the ids is the contract suite's, run
 * wherever EVENTSTORE_URL is set.
 */
let standIn: KurrentDbStandIn;
let client: KurrentDBClient;

beforeEach(async () => {
  standIn = await KurrentDbStandIn.start();
  client = KurrentDBClient.connectionString(standIn.url());
});

afterEach(async () => {
  await client.dispose();
  await standIn.close();
});

function storeWith(attempts = 3, operationTimeoutMs = 10_000) {
  return new EventStoreDbEventStore(client, {
    operationTimeoutMs,
    retry: {
      policy: { attempts, initialMs: 1, maxMs: 1, jitter: 'full' },
      random: () => 0,
      sleep: async () => undefined,
    },
  });
}

function events(n: number): NewEvent[] {
  const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: 'req-1', time: '2026-01-01T00:00:00.000Z' };
  return Array.from({ length: n }, (_, i) => ({ type: `E${i}`, data: {}, metadata }));
}

const refused = (code: status) => ({ code, details: 'injected' });

describe('KurrentDB append with an unknown outcome (real client, stand-in peer)', () => {
  it('retries after a refused connection, a deadline and a lost answer, with the same ids, and commits once', async () => {
    const store = storeWith(4);
    await store.append('member-7', eventIds('member-7', 'no_stream', events(3)), 'no_stream');
    standIn.failNext('Append', refused(status.UNAVAILABLE), refused(status.DEADLINE_EXCEEDED), 'lose-answer');
    const given = eventIds('member-7', 2, events(2));
    await expect(store.append('member-7', given, 2)).resolves.toEqual({
      nextExpectedRevision: 4,
      position: '00000000000000000500:00000000000000000500',
    });
    expect(standIn.calls.get('Append')).toBe(5);
    expect(
      standIn.log
        .stream('member-7')
        .map((e) => e.id)
        .slice(3),
    ).toEqual(given.map((e) => e.id));
  });

  it('draws ids once for events without, and sends those same ids on every retry', async () => {
    standIn.failNext('Append', 'lose-answer', 'lose-answer');
    await storeWith(3).append('s', events(3), 'any');
    expect(standIn.calls.get('Append')).toBe(3);
    expect(standIn.log.stream('s')).toHaveLength(3);
  });

  it('says the store is unavailable once the retries are spent, and why', async () => {
    standIn.failNext('Append', ...[1, 2, 3].map(() => refused(status.UNAVAILABLE)));
    const error = await storeWith(3)
      .append('s', events(1), 'any')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as StoreUnavailable).cause).toBeInstanceOf(UnavailableError);
    expect(standIn.calls.get('Append')).toBe(3);
    expect(standIn.log.all()).toEqual([]);
  });

  it("gives up on a server that never answers after the time limit (the call's deadline or our timer), as unavailable", async () => {
    standIn.holdAnswers(true);
    const error = await storeWith(2, 200)
      .append('s', events(1), 'any')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    const cause = (error as StoreUnavailable).cause;
    expect(cause instanceof DeadlineExceededError || cause instanceof OperationTimedOut).toBe(true);
    expect(standIn.calls.get('Append')).toBe(2);
  });

  it('gives all tries together no more than the budget, each what is left of it', async () => {
    standIn.holdAnswers(true);
    const store = new EventStoreDbEventStore(client, {
      operationTimeoutMs: 400,
      retry: {
        policy: { attempts: 4, initialMs: 1, maxMs: 1, jitter: 'full', budgetMs: 600 },
        random: () => 0,
        sleep: async () => undefined,
      },
    });
    const started = Date.now();
    await expect(store.append('s', events(1), 'any')).rejects.toBeInstanceOf(StoreUnavailable);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(standIn.calls.get('Append')).toBe(2);
  });

  it('does not retry a wrong expected revision, and reports it in the port terms', async () => {
    const store = storeWith();
    await store.append('s', events(6), 'no_stream');
    await expect(store.append('s', events(1), 3)).rejects.toEqual(new WrongExpectedVersion('s', 3, 5));
    expect(standIn.calls.get('Append')).toBe(2);
  });

  it('refuses an append to a deleted stream with StreamDeleted, without retrying', async () => {
    standIn.failNext('Append', {
      code: status.FAILED_PRECONDITION,
      details: 'deleted',
      metadata: { exception: 'stream-deleted', 'stream-name': 'member-7' },
    });
    await expect(storeWith().append('member-7', events(1), 3)).rejects.toEqual(new StreamDeleted('member-7'));
    expect(standIn.calls.get('Append')).toBe(1);
  });

  it('sends each append on its own call, never through the capability probe or the shared batch stream', async () => {
    await storeWith().append('s', events(1), 'any');
    expect(standIn.calls.get('GetSupportedMethods')).toBeUndefined();
    expect(standIn.calls.get('BatchAppend')).toBeUndefined();
    expect(standIn.calls.get('Append')).toBe(1);
  });
});
