import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { eventIds } from '../../src/stores/event-ids';
import { START, WrongExpectedVersion, type NewEvent, type RecordedEvent } from '../../src/stores/ports';
import {
  openDatabase,
  openSqliteStores,
  SqliteDocumentStore,
  SqliteEventStore,
  SqliteSessionStore,
} from '../../src/stores/sqlite';
import { documentStoreContract } from './document-store.contract';
import { eventStoreContract } from './event-store.contract';
import { idempotencyContract } from './idempotency.contract';
import { leaseContract } from './lease.contract';
import { nameClaimsContract } from './name-claims.contract';
import { rateLimitsContract } from './rate-limits.contract';
import { sessionStoreContract } from './session-store.contract';

const THREADS = 8;

function event(type: string): NewEvent {
  return {
    type,
    data: {},
    metadata: { actor: { kind: 'cli', id: null }, request_id: randomUUID(), time: new Date().toISOString() },
  };
}

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

describe('SQLite event store', () => {
  eventStoreContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.events, teardown: () => stores.close() };
  });
});

describe('SQLite event store: names claimed', () => {
  nameClaimsContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.events, teardown: () => stores.close() };
  });
});

describe('SQLite document store', () => {
  documentStoreContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.documents, teardown: () => stores.close() };
  });
});

describe('SQLite idempotency records', () => {
  idempotencyContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.documents, teardown: () => stores.close() };
  });
});

describe('SQLite leases and fenced writes, two openings of one data directory', () => {
  leaseContract(async () => {
    const [one, other] = [openSqliteStores(dir), openSqliteStores(dir)];
    return {
      store: { one, other },
      teardown: async () => {
        await one.close();
        await other.close();
      },
    };
  });
});

describe('SQLite leases asked for by several threads at once, each with its own connection', () => {
  it(`grants a free lease to exactly one of ${THREADS} threads released at the same moment`, async () => {
    const stores = openSqliteStores(dir);
    const lease = `race-${randomUUID()}`;
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < THREADS; i++)
        workers.push(
          new Worker(join(__dirname, 'sqlite-lease-worker.js'), {
            workerData: { file: join(dir, 'platform.db'), lease, gate: gate.buffer },
          }),
        );
      await Promise.all(workers.map((w) => once(w, 'message')));
      const outcomes = workers.map(
        async (w) => (await once(w, 'message'))[0] as { threadId: number; term: unknown; error?: string },
      );
      const exits = workers.map((w) => once(w, 'exit'));
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      const results = await Promise.all(outcomes);
      await Promise.all(exits);
      expect(results.filter((r) => r.error)).toEqual([]);
      const granted = results.filter((r) => r.term !== null);
      expect(granted).toHaveLength(1);
      expect(await stores.leases.current(lease)).toEqual({
        holder: `thread-${granted[0]!.threadId}`,
        token: 1,
        expiresAt: expect.any(Number),
      });
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await Promise.all(workers.map((w) => w.terminate()));
      await stores.close();
    }
  }, 60_000);
});

describe('SQLite session store', () => {
  sessionStoreContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.sessions, teardown: () => stores.close() };
  });
});

describe('SQLite rate limits, two openings of one data directory', () => {
  rateLimitsContract(async () => {
    const [one, other] = [openSqliteStores(dir), openSqliteStores(dir)];
    return {
      store: { one: one.rateLimits, other: other.rateLimits },
      teardown: async () => {
        await Promise.all([one.close(), other.close()]);
      },
    };
  });

  it(`admits exactly its points of attempts raced by ${THREADS} threads, each on its own connection`, async () => {
    const policy = { name: `raced-${randomUUID()}`, points: 5, windowSeconds: 60, blockSeconds: 900 };
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const workerData = { file: join(dir, 'rate-limits.db'), policy, attempts: 3, gate: gate.buffer };
    const workers = Array.from(
      { length: THREADS },
      () => new Worker(join(__dirname, 'sqlite-count-worker.js'), { workerData }),
    );
    try {
      await Promise.all(workers.map((w) => once(w, 'message')));
      const allowed = workers.map(async (w) => (await once(w, 'message'))[0] as number);
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      expect((await Promise.all(allowed)).reduce((a, b) => a + b, 0)).toBe(5);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }, 60_000);

  it('keeps hot counts in memory: counting them writes nothing, not even the file', async () => {
    const fresh = join(dir, `hot-${randomUUID()}`);
    const stores = openSqliteStores(fresh);
    try {
      const limiter = await stores.rateLimits.limiter({
        name: 'hot',
        points: 1,
        windowSeconds: 60,
        blockSeconds: 0,
        hot: true,
      });
      expect(await limiter.consume('k')).toMatchObject({ allowed: true });
      expect(await limiter.consume('k')).toMatchObject({ allowed: false });
      expect(existsSync(join(fresh, 'rate-limits.db'))).toBe(false);
    } finally {
      await stores.close();
    }
  });

  it('purges expired counts, which are never read again, when it opens the file', async () => {
    const fresh = join(dir, `purge-${randomUUID()}`);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const first = openSqliteStores(fresh);
      await (
        await first.rateLimits.limiter({ name: 'expiring', points: 1, windowSeconds: 1, blockSeconds: 0 })
      ).consume('k');
      await (
        await first.rateLimits.limiter({ name: 'lasting', points: 1, windowSeconds: 3600, blockSeconds: 0 })
      ).consume('k');
      await first.close();
      clock.mockReturnValue(now + 2000);
      const second = openSqliteStores(fresh);
      await second.rateLimits.limiter({ name: 'any', points: 1, windowSeconds: 1, blockSeconds: 0 });
      await second.close();
    } finally {
      clock.mockRestore();
    }
    const db = new BetterSqlite3(join(fresh, 'rate-limits.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT key FROM rate_limits').all()).toEqual([{ key: 'lasting:k' }]);
    } finally {
      db.close();
    }
  });
});

describe('SQLite database file', () => {
  it('is created with its directory and opened for durable, shared use', () => {
    const db = openDatabase(join(dir, 'nested', 'deeper', 'settings.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      db.close();
    }
  });

  it('keeps events, documents and sessions across close and reopen', async () => {
    const stream = `reopen-${randomUUID()}`;
    const first = openSqliteStores(dir);
    const { position } = await first.events.append(stream, [event('Kept')], 'no_stream');
    await first.documents.write([{ collection: 'reopened', id: stream, doc: { kept: true }, position }], {
      projection: 'reopened',
      position,
    });
    await first.sessions.create(stream, { kept: true }, 60_000);
    await first.close();

    const second = openSqliteStores(dir);
    try {
      expect((await second.events.readStream(stream)).map((e) => [e.type, e.position])).toEqual([['Kept', position]]);
      expect(await second.documents.get('reopened', stream)).toEqual({ id: stream, doc: { kept: true }, position });
      expect(await second.documents.checkpoint('reopened')).toBe(position);
      expect(await second.sessions.get(stream)).toEqual({ kept: true });
    } finally {
      await second.close();
    }
  });

  it('reports health, and closes once', async () => {
    const stores = openSqliteStores(dir);
    expect(await stores.health()).toEqual([{ name: 'sqlite', ok: true, detail: join(dir, 'platform.db') }]);
    await stores.close();
    await stores.close();
    expect(await stores.health()).toEqual([{ name: 'sqlite', ok: false, detail: expect.any(String) }]);
  });

  it('ends open subscriptions when the stores close', async () => {
    const stores = openSqliteStores(dir);
    const subscription = (async () => {
      const seen: RecordedEvent[] = [];
      for await (const e of stores.events.subscribeAll(START)) seen.push(e);
      return seen;
    })();
    await delay(200);
    await stores.close();
    await expect(subscription).resolves.toEqual(expect.any(Array));
  });

  it('rejects a position that is not its own', async () => {
    const stores = openSqliteStores(dir);
    try {
      await expect(stores.events.readAll('42', 10)).rejects.toThrow('position');
    } finally {
      await stores.close();
    }
  });

  it('purges expired sessions that are never read again', async () => {
    const db = openDatabase(join(dir, 'platform.db'));
    const sessions = new SqliteSessionStore(db);
    const [abandoned, active] = [randomUUID(), randomUUID()];
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      await sessions.create(abandoned, {}, 1000);
      clock.mockReturnValue(now + 61_000);
      await sessions.create(active, {}, 1000);
      const ids = db.prepare<[string, string], { id: string }>('SELECT id FROM sessions WHERE id IN (?, ?)');
      expect(ids.all(abandoned, active)).toEqual([{ id: active }]);
    } finally {
      clock.mockRestore();
      db.close();
    }
  });

  it('moves a session expiry on update only when the session would end too soon, as a renewal does', async () => {
    const db = openDatabase(join(dir, 'platform.db'));
    const sessions = new SqliteSessionStore(db);
    const id = randomUUID();
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    const expiry = () =>
      db.prepare<[string], { expires_at: number }>('SELECT expires_at FROM sessions WHERE id = ?').get(id)?.expires_at;
    try {
      await sessions.create(id, { member: 1 }, 60_000);
      // Renewed: to live at least its lifetime from now, and a second more (a sixtieth of it).
      clock.mockReturnValue(now + 500);
      expect(await sessions.update(id, { member: 2 }, 60_000)).toBe(true);
      expect(expiry()).toBe(now + 61_500);
      // Within that second: the data changes, the expiry stays.
      clock.mockReturnValue(now + 1_200);
      expect(await sessions.update(id, { member: 3 }, 60_000)).toBe(true);
      expect(expiry()).toBe(now + 61_500);
      expect(await sessions.get(id)).toEqual({ member: 3 });
      // Past it: renewed again.
      clock.mockReturnValue(now + 30_000);
      expect(await sessions.update(id, { member: 4 }, 60_000)).toBe(true);
      expect(expiry()).toBe(now + 91_000);
      expect(await sessions.get(id)).toEqual({ member: 4 });
    } finally {
      clock.mockRestore();
      db.close();
    }
  });

  it('accepts only plain identifiers as collection and field names', async () => {
    const db = openDatabase(join(dir, 'platform.db'));
    const documents = new SqliteDocumentStore(db);
    try {
      for (const name of ['Users', '1users', 'users-x', "x'); DROP TABLE documents; --", '']) {
        await expect(documents.ensureCollections([{ name, indexes: [] }])).rejects.toThrow('invalid collection');
      }
      for (const field of ['a.b', 'A', "a')"]) {
        await expect(documents.ensureCollections([{ name: 'users', indexes: [field] }])).rejects.toThrow(
          'invalid field',
        );
        await expect(documents.find('users', { [field]: 1 })).rejects.toThrow('invalid field');
      }
    } finally {
      db.close();
    }
  });
});

describe('SQLite appends synced off the event loop', () => {
  it('checks appends made close together each against its own expected revision, in the order they come', async () => {
    const groupDir = mkdtempSync(join(dir, 'group-'));
    const stores = openSqliteStores(groupDir);
    const reader = openDatabase(join(groupDir, 'platform.db'));
    try {
      await stores.events.append('taken', [event('First')], 'no_stream');
      const outcomes = await Promise.allSettled([
        stores.events.append('a', [event('A1')], 'no_stream'),
        stores.events.append('taken', [event('Again')], 'no_stream'),
        stores.events.append('a', [event('A2')], 0),
        stores.events.append('b', [event('B1'), event('B2')], 'no_stream'),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersion);
      expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: { nextExpectedRevision: 1 } });
      // What another connection sees: every acknowledged append, nothing of the refused one.
      const types = reader.prepare<[], { type: string }>('SELECT type FROM events ORDER BY position').all();
      expect(types.map((row) => row.type)).toEqual(['First', 'A1', 'A2', 'B1', 'B2']);
    } finally {
      reader.close();
      await stores.close();
    }
  });

  it('answers an append, and hands it to subscribers, only once a sync of the log begun after its commit is done', async () => {
    const syncDir = mkdtempSync(join(dir, 'sync-'));
    const wal = `${join(syncDir, 'platform.db')}-wal`;
    const real = fs.fdatasync;
    const held: (() => void)[] = [];
    const synced: number[] = [];
    const spy = jest.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (error: Error | null) => void) => {
      synced.push(fs.fstatSync(fd).ino);
      held.push(() => real(fd, done));
    }) as typeof fs.fdatasync);
    const realFsync = fs.fsync;
    const directories: number[] = [];
    const fsyncSpy = jest.spyOn(fs, 'fsync').mockImplementation(((fd: number, done: (error: Error | null) => void) => {
      directories.push(fs.fstatSync(fd).ino);
      realFsync(fd, done);
    }) as typeof fs.fsync);
    const stores = openSqliteStores(syncDir);
    const abort = new AbortController();
    try {
      const seen: string[] = [];
      const subscription = (async () => {
        for await (const e of stores.events.subscribeAll(START, abort.signal)) seen.push(e.type);
      })();
      const answered: string[] = [];
      const first = stores.events.append('s', [event('First')], 'no_stream').then(() => answered.push('First'));
      const second = stores.events.append('s', [event('Second')], 0).then(() => answered.push('Second'));
      await delay(50);
      // Both are committed (the second passed its check against the first), neither is on disk yet.
      expect(answered).toEqual([]);
      expect(seen).toEqual([]);
      expect(held).toHaveLength(1);
      held.shift()!();
      await first;
      // The sync in flight began before the second commit, so the second waits for the next one.
      expect(answered).toEqual(['First']);
      await delay(50);
      expect(seen).toEqual(['First']);
      expect(held).toHaveLength(1);
      held.shift()!();
      await second;
      await delay(50);
      expect(seen).toEqual(['First', 'Second']);
      expect(new Set(synced)).toEqual(new Set([fs.statSync(wal).ino]));
      // Once, before the first: the WAL's name in its directory, as SQLite does for a new WAL.
      expect(directories).toEqual([fs.statSync(syncDir).ino]);
      abort.abort();
      await subscription;
    } finally {
      abort.abort();
      spy.mockRestore();
      fsyncSpy.mockRestore();
      for (const release of held) release();
      await stores.close();
    }
  });

  it('refuses further appends once a sync of the log failed, since no later sync can vouch for them', async () => {
    const syncDir = mkdtempSync(join(dir, 'sync-'));
    const spy = jest
      .spyOn(fs, 'fdatasync')
      .mockImplementation(((_fd: number, done: (error: Error | null) => void) =>
        done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))) as typeof fs.fdatasync);
    const stores = openSqliteStores(syncDir);
    try {
      await expect(stores.events.append('s', [event('Lost')], 'no_stream')).rejects.toThrow('EIO');
      await expect(stores.events.append('t', [event('After')], 'no_stream')).rejects.toThrow('EIO');
      expect(await stores.events.readStream('t')).toEqual([]);
    } finally {
      spy.mockRestore();
      await stores.close();
    }
  });

  it('answers a caller only once its append is committed, and a retry made at once with the same result', async () => {
    const groupDir = mkdtempSync(join(dir, 'group-'));
    const stores = openSqliteStores(groupDir);
    const reader = new SqliteEventStore(openDatabase(join(groupDir, 'platform.db')));
    try {
      const first = event('Applied');
      const sameAgain = { ...first, id: randomUUID() };
      const retried = { ...sameAgain };
      const seen = stores.events
        .append('c', [sameAgain], 'no_stream')
        .then(async (result) => ({ result, stored: await reader.readStream('c') }));
      const retry = stores.events.append('c', [retried], 'no_stream');
      const { result, stored } = await seen;
      expect(stored.map((e) => e.type)).toEqual(['Applied']);
      expect(await retry).toEqual(result);
    } finally {
      await reader.close();
      await stores.close();
    }
  });

  it('syncs the appends still waiting when the stores close', async () => {
    const groupDir = mkdtempSync(join(dir, 'group-'));
    const stores = openSqliteStores(groupDir);
    const appended = stores.events.append('d', [event('Late')], 'no_stream');
    await stores.close();
    await expect(appended).resolves.toMatchObject({ nextExpectedRevision: 0 });
    const reopened = openSqliteStores(groupDir);
    try {
      expect((await reopened.events.readStream('d')).map((e) => e.type)).toEqual(['Late']);
    } finally {
      await reopened.close();
    }
  });

  it('saves sessions without a sync of the log, which only appends wait for', async () => {
    const sessionDir = mkdtempSync(join(dir, 'sessions-'));
    const spy = jest.spyOn(fs, 'fdatasync');
    const stores = openSqliteStores(sessionDir);
    try {
      await stores.sessions.create('s1', { user: 1 }, 60_000);
      expect(await stores.sessions.get('s1')).toEqual({ user: 1 });
      expect(spy).not.toHaveBeenCalled();
      await stores.events.append('e', [event('Appended')], 'no_stream');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
      await stores.close();
    }
  });
});

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
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const workers: Worker[] = [];
    try {
      await stores.events.append(stream, [event('Opened')], 'no_stream');
      for (let i = 0; i < THREADS; i++) {
        workers.push(
          new Worker(join(__dirname, 'sqlite-append-worker.js'), {
            workerData: { file, stream, expected: 0, gate: gate.buffer },
          }),
        );
      }
      await Promise.all(workers.map((w) => once(w, 'message')));
      const outcomes = workers.map(async (w) => (await once(w, 'message'))[0] as AppendOutcome);
      const exits = workers.map((w) => once(w, 'exit'));
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);

      const results = await Promise.all(outcomes);
      await Promise.all(exits);
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
      // Releases any worker still at the gate, should the test have failed before.
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await Promise.all(workers.map((w) => w.terminate()));
      await stores.close();
    }
  }, 60_000);
});
