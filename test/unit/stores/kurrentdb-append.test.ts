import {
  DeadlineExceededError,
  StreamDeletedError,
  UnavailableError,
  WrongExpectedVersionError,
  type AppendResult as ClientAppendResult,
  type AppendToStreamOptions,
  type EventData,
  type KurrentDBClient,
} from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../../src/stores/eventstoredb/event-store';
import { OperationTimedOut } from '../../../src/stores/eventstoredb/timeouts';
import { eventIds } from '../../../src/stores/event-ids';
import { StoreUnavailable, StreamDeleted, WrongExpectedVersion, type NewEvent } from '../../../src/stores/ports';

/**
 * The adapter's own behaviour around the client's append: which of the client's errors (its real
 * classes) it retries, with which ids, and what it reports. The client stands in for a server
 * that cannot run here; what the server does with the ids is the contract suite's, run for real
 * wherever EVENTSTORE_URL is set.
 */
function clientAnswering(...answers: (ClientAppendResult | Error)[]) {
  const calls: { ids: string[]; options: AppendToStreamOptions | undefined }[] = [];
  const client = {
    appendToStream: async (_stream: string, events: EventData[], options?: AppendToStreamOptions) => {
      calls.push({ ids: events.map((e) => e.id), options });
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as KurrentDBClient;
  const store = new EventStoreDbEventStore(client, {
    retry: { policy: { attempts: 3, initialMs: 1, maxMs: 1, jitter: 'full' }, random: () => 0, sleep: async () => undefined },
  });
  return { store, calls };
}

const committed: ClientAppendResult = { success: true, nextExpectedRevision: 4n, position: { commit: 900n, prepare: 900n } };

function events(n: number): NewEvent[] {
  const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: 'req-1', time: '2026-01-01T00:00:00.000Z' };
  return Array.from({ length: n }, (_, i) => ({ type: `E${i}`, data: {}, metadata }));
}

// The client's errors are built as the client builds them from a gRPC status it received.
const unavailable = () => new UnavailableError({ code: 14, details: 'connection dropped', message: '14 UNAVAILABLE' } as never);
const deadline = () => new DeadlineExceededError({ code: 4, details: 'deadline', message: '4 DEADLINE_EXCEEDED' } as never);

describe('KurrentDB append with an unknown outcome', () => {
  it('retries with the same ids after a dropped connection, a deadline or our own timeout, and answers the commit', async () => {
    const { store, calls } = clientAnswering(unavailable(), deadline(), committed);
    const given = eventIds('member-7', 3, events(2));
    await expect(store.append('member-7', given, 3)).resolves.toEqual({
      nextExpectedRevision: 4,
      position: '00000000000000000900:00000000000000000900',
    });
    expect(calls.map((c) => c.ids)).toEqual([0, 1, 2].map(() => given.map((e) => e.id)));
    expect(calls.every((c) => c.options?.streamState === 3n && c.options.deadline === 10_000)).toBe(true);

    const timedOut = clientAnswering(new OperationTimedOut('append to s', 10), committed);
    await expect(timedOut.store.append('s', given, 3)).resolves.toMatchObject({ nextExpectedRevision: 4 });
  });

  it('draws ids once for events without, and sends those same ids on every retry', async () => {
    const { store, calls } = clientAnswering(unavailable(), committed);
    await store.append('s', events(3), 'any');
    const [first, second] = calls.map((c) => c.ids);
    expect(new Set(first).size).toBe(3);
    expect(second).toEqual(first);
  });

  it('says the store is unavailable once the retries are spent, and why', async () => {
    const { store, calls } = clientAnswering(unavailable(), unavailable(), unavailable(), committed);
    const error = await store.append('s', events(1), 'any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as StoreUnavailable).cause).toBeInstanceOf(UnavailableError);
    expect(calls).toHaveLength(3);
  });

  it('does not retry a wrong expected revision, and reports it in the port terms', async () => {
    const conflict = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 3n, current: 5n });
    const { store, calls } = clientAnswering(conflict, committed);
    await expect(store.append('s', events(1), 3)).rejects.toEqual(new WrongExpectedVersion('s', 3, 5));
    expect(calls).toHaveLength(1);
  });

  it('refuses an append to a deleted stream with StreamDeleted, without retrying', async () => {
    const { store, calls } = clientAnswering(StreamDeletedError.fromStreamName('member-7'), committed);
    await expect(store.append('member-7', events(1), 3)).rejects.toEqual(new StreamDeleted('member-7'));
    expect(calls).toHaveLength(1);
  });
});
