import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { eventIds } from '../../src/stores/event-ids';
import { WrongExpectedVersion, type NewEvent } from '../../src/stores/ports';
import { openDatabase, openSqliteStores, SqliteEventStore } from '../../src/stores/sqlite';
import { event, raceThreads, THREADS } from './sqlite-support';

interface AppendOutcome {
  ok: boolean;
  threadId: number;
  name?: string;
  actual?: number | 'no_stream';
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite event store shared by several connections', () => {
  /** Two stores on two connections to one file, as two platform instances in one process have. */
  async function withTwoConnections(
    run: (one: SqliteEventStore, other: SqliteEventStore) => Promise<void>,
  ): Promise<void> {
    const file = join(dir, 'platform.db');
    const dbs = [openDatabase(file), openDatabase(file)] as const;
    const [one, other] = dbs.map((db) => new SqliteEventStore(db)) as [SqliteEventStore, SqliteEventStore];
    try {
      await run(one, other);
    } finally {
      await Promise.all([one.close(), other.close()]);
      for (const db of dbs) db.close();
    }
  }

  it('lets exactly one of two connections create a stream, every time they race', async () => {
    await withTwoConnections(async (one, other) => {
      for (let round = 0; round < 200; round++) {
        const stream = `raced-${randomUUID()}`;
        const outcomes = await Promise.allSettled([
          one.append(stream, eventIds(stream, 'no_stream', [event('One')]), 'no_stream'),
          other.append(stream, eventIds(stream, 'no_stream', [event('Other')]), 'no_stream'),
        ]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(refused?.reason).toBeInstanceOf(WrongExpectedVersion);
        expect(await one.readStream(stream)).toHaveLength(1);
      }
    });
  });

  it('lets only one of two writers win when their events share ids but not content, as two instances seeding do', async () => {
    await withTwoConnections(async (one, other) => {
      for (let round = 0; round < 50; round++) {
        const stream = `admin-${randomUUID()}`;
        // One request id for both, as every instance's seeding had: the ids are alike, the password hashes are not.
        const metadata = {
          actor: { kind: 'system' as const, id: 'seed' },
          request_id: 'seed',
          time: new Date(0).toISOString(),
        };
        const created = (hash: string): NewEvent[] =>
          eventIds(stream, 'no_stream', [
            { type: 'AdminCreated', data: { username: 'admin', password_hash: hash }, metadata },
          ]);
        const outcomes = await Promise.allSettled([
          one.append(stream, created('hash-one'), 'no_stream'),
          other.append(stream, created('hash-other'), 'no_stream'),
        ]);
        expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
        const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(refused?.reason).toBeInstanceOf(WrongExpectedVersion);
        const winner = outcomes[0].status === 'fulfilled' ? 'hash-one' : 'hash-other';
        expect((await other.readStream(stream)).map((e) => e.data.password_hash)).toEqual([winner]);
      }
    });
  });

  it('delivers an event appended through one connection to a subscription on another', async () => {
    const file = join(dir, 'platform.db');
    const [writerDb, readerDb] = [openDatabase(file), openDatabase(file)];
    const writer = new SqliteEventStore(writerDb);
    const reader = new SqliteEventStore(readerDb);
    const abort = new AbortController();
    const limit = setTimeout(() => abort.abort(), 5000);
    try {
      const stream = `polled-${randomUUID()}`;
      const received = (async () => {
        for await (const e of reader.subscribeAll(await reader.headPosition(), abort.signal)) {
          if (e.stream === stream) return e;
        }
        return null;
      })();
      await delay(200);
      const { position } = await writer.append(stream, [event('FromAnotherConnection')], 'no_stream');
      expect(await received).toMatchObject({ stream, type: 'FromAnotherConnection', position });
    } finally {
      clearTimeout(limit);
      abort.abort();
      await Promise.all([writer.close(), reader.close()]);
      writerDb.close();
      readerDb.close();
    }
  });

  it(`lets exactly one of ${THREADS} threads win a race on the same expected revision`, async () => {
    const file = join(dir, 'platform.db');
    const stream = `threads-${randomUUID()}`;
    const stores = openSqliteStores(dir);
    try {
      await stores.events.append(stream, [event('Opened')], 'no_stream');
      const results = await raceThreads<AppendOutcome>('sqlite-append-worker.js', { file, stream, expected: 0 });
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(
        Array.from({ length: THREADS - 1 }, () => expect.objectContaining({ name: 'WrongExpectedVersion', actual: 1 })),
      );
      const events = await stores.events.readStream(stream);
      expect(events.map((e) => [e.revision, e.metadata.request_id])).toEqual([
        [0, expect.any(String)],
        [1, `thread-${winners[0]?.threadId}`],
      ]);
    } finally {
      await stores.close();
    }
  }, 60_000);
});
