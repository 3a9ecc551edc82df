import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decider } from '../../../src/shared/domain/decider';
import { CommandContext, toNewEvents } from '../../../src/shared/commands/context';
import { handle } from '../../../src/shared/commands/handle';
import { openSqliteStores } from '../../../src/stores/sqlite';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoreUnavailable,
  Stores,
} from '../../../src/stores/ports';

// Any event type the registry knows, with no data: the handler's ids and revisions are what is tested.
type Seeded = { type: 'PlatformSeeded'; data: Record<string, never> };
const noting: Decider<{ text: string }, Seeded, number> = {
  initialState: 0,
  decide: () => [{ type: 'PlatformSeeded', data: {} }],
  evolve: (state) => state + 1,
};
const ctx = (requestId: string): CommandContext => ({
  actor: { kind: 'system', id: null },
  requestId,
  now: new Date(),
});

let stores: Stores;
beforeEach(async () => {
  stores = await openSqliteStores(mkdtempSync(join(tmpdir(), 'event-ids-')));
});
afterEach(() => stores.close());

/** The store with its append (or reads) replaced; the adapter is a class, so its methods are bound one by one. */
function replacing(store: EventStore, parts: Partial<EventStore>): EventStore {
  return {
    append: (s, e, x) => store.append(s, e, x),
    readStream: (s, o) => store.readStream(s, o),
    readAll: (f, n) => store.readAll(f, n),
    headPosition: () => store.headPosition(),
    subscribeAll: (f, signal, observer) => store.subscribeAll(f, signal, observer),
    close: () => store.close(),
    ...parts,
  };
}

/** An event store whose first append commits and then loses its answer, as a timed-out write does. */
function losingFirstAnswer(store: EventStore, appended: NewEvent[][]): EventStore {
  let lost = false;
  return replacing(store, {
    append: async (stream, events, expected) => {
      appended.push(events);
      const result = await store.append(stream, events, expected);
      if (lost) return result;
      lost = true;
      throw new StoreUnavailable('append');
    },
  });
}

describe('the command handler appends with deterministic event ids', () => {
  it('an append retried after an unknown outcome, with the ids the handler sent, is applied once', async () => {
    const appended: NewEvent[][] = [];
    const store = losingFirstAnswer(stores.events, appended);
    await expect(handle(store, 'note-1', noting, { text: 'a' }, ctx('req-1'))).rejects.toThrow(StoreUnavailable);
    const [sent] = appended;
    expect(sent![0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // What an adapter does after the unknown outcome: the same events, the same expected revision.
    await store.append('note-1', sent!, 'no_stream');
    expect(await stores.events.readStream('note-1')).toHaveLength(1);
  });

  it('two requests get different ids, and a second command on the stream appends after the first', async () => {
    const appended: NewEvent[][] = [];
    const store = replacing(stores.events, { append: (s, e, x) => (appended.push(e), stores.events.append(s, e, x)) });
    await handle(store, 'note-2', noting, { text: 'a' }, ctx('req-1'));
    await handle(store, 'note-2', noting, { text: 'b' }, ctx('req-2'));
    expect(new Set(appended.flat().map((e) => e.id)).size).toBe(2);
    expect((await stores.events.readStream('note-2')).map((e) => e.metadata.request_id)).toEqual(['req-1', 'req-2']);
  });

  it('takes the expected revision from the last event read, not from how many were read (a truncated stream)', async () => {
    const [old] = toNewEvents([{ type: 'PlatformSeeded', data: {} }], ctx('old'), 'note-3', {
      expected: 'no_stream',
      digest: null,
    });
    const truncated: RecordedEvent[] = [5, 6].map((revision) => ({
      ...old!,
      stream: 'note-3',
      revision,
      position: String(revision),
    }));
    let expectedSeen: ExpectedRevision | undefined;
    const store = replacing(stores.events, {
      readStream: async () => truncated,
      append: async (_s, _e, expected): Promise<AppendResult> => {
        expectedSeen = expected;
        return { nextExpectedRevision: 7, position: '7' };
      },
    });
    await handle(store, 'note-3', noting, { text: 'c' }, ctx('req-3'));
    expect(expectedSeen).toBe(6);
  });
});
