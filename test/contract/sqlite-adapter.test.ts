import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { eventIds } from '../../src/stores/event-ids';
import {
  InvalidPosition,
  ProjectionsClaimed,
  START,
  WrongExpectedVersion,
  type NewEvent,
} from '../../src/stores/ports';
import { openDatabase, openSqliteStores, SqliteDocumentStore } from '../../src/stores/sqlite';

function event(type: string, requestId = randomUUID()): NewEvent {
  return {
    type,
    data: {},
    metadata: { actor: { kind: 'cli', id: null }, request_id: requestId, time: new Date().toISOString() },
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-sqlite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite event ids', () => {
  it('gives every event a unique id, and refuses to reuse one for other events', async () => {
    const stores = openSqliteStores(dir);
    try {
      const [opened] = eventIds('a', 'no_stream', [event('Opened')]);
      await stores.events.append('a', [opened as NewEvent], 'no_stream');
      await stores.events.append('a', [event('Unnamed')], 0);
      // The same id at another revision, or in another stream, names other events: a conflict.
      await expect(stores.events.append('a', [{ ...event('Again'), id: opened?.id }], 1)).rejects.toBeInstanceOf(
        WrongExpectedVersion,
      );
      await expect(
        stores.events.append('b', [{ ...event('Elsewhere'), id: opened?.id }], 'no_stream'),
      ).rejects.toBeInstanceOf(WrongExpectedVersion);
      expect((await stores.events.readStream('a')).map((e) => e.type)).toEqual(['Opened', 'Unnamed']);
      expect(await stores.events.readStream('b')).toEqual([]);
    } finally {
      await stores.close();
    }
    const db = new BetterSqlite3(join(dir, 'platform.db'), { readonly: true });
    const ids = db
      .prepare<[], { id: string | null }>('SELECT id FROM events')
      .all()
      .map((row) => row.id);
    db.close();
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
  });

  it('recognises a retry from another process on the same file', async () => {
    const one = openSqliteStores(dir);
    const other = openSqliteStores(dir);
    try {
      const events = eventIds('s', 'no_stream', [event('A'), event('B')]);
      const first = await one.events.append('s', events, 'no_stream');
      await expect(other.events.append('s', events, 'no_stream')).resolves.toEqual(first);
      expect(await other.events.readStream('s')).toHaveLength(2);
    } finally {
      await other.close();
      await one.close();
    }
  });

  it('adds the id column to a file written before event ids, keeping its events', async () => {
    const file = join(dir, 'platform.db');
    const old = new BetterSqlite3(file);
    old.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, revision INTEGER NOT NULL,
      type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision))`);
    old
      .prepare('INSERT INTO events (stream, revision, type, data, metadata) VALUES (?, 0, ?, ?, ?)')
      .run('s', 'Old', '{}', JSON.stringify(event('Old').metadata));
    old.close();
    const stores = openSqliteStores(dir);
    try {
      const events = eventIds('s', 0, [event('New')]);
      const first = await stores.events.append('s', events, 0);
      expect(await stores.events.append('s', events, 0)).toEqual(first);
      expect((await stores.events.readStream('s')).map((e) => e.type)).toEqual(['Old', 'New']);
    } finally {
      await stores.close();
    }
  });
});

describe('SQLite projections lock', () => {
  it('lets one opening of a data directory run the projections at a time, and frees it when that one closes', async () => {
    const one = openSqliteStores(dir);
    const other = openSqliteStores(dir);
    try {
      one.claimProjections();
      one.claimProjections();
      expect(() => other.claimProjections()).toThrow(ProjectionsClaimed);
      expect(() => other.claimProjections()).toThrow(
        /another process already runs the projections on .*projections\.lock.*PROJECTIONS=off/,
      );
      await one.close();
      expect(() => other.claimProjections()).not.toThrow();
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });
});

describe('SQLite subscription', () => {
  it('halts loudly on a checkpoint after the head of the log, and says the subscription is live otherwise', async () => {
    const stores = openSqliteStores(dir);
    try {
      const { position } = await stores.events.append('s', [event('A')], 'no_stream');
      const ahead = String(Number(position) + 5).padStart(20, '0');
      const iterator = stores.events.subscribeAll(ahead)[Symbol.asyncIterator]();
      await expect(iterator.next()).rejects.toThrow(InvalidPosition);

      let live = 0;
      const abort = new AbortController();
      const seen = [];
      for await (const event of stores.events.subscribeAll(START, abort.signal, { onLive: () => (live += 1) })) {
        seen.push(event.type);
        abort.abort();
      }
      expect(seen).toEqual(['A']);
      expect(live).toBe(1);
    } finally {
      await stores.close();
    }
  });
});

describe('SQLite scratch document writes', () => {
  const at = (n: number) => String(n).padStart(20, '0');
  const aside = 'credentials__rebuild';

  async function withDocuments(
    work: (documents: SqliteDocumentStore, db: ReturnType<typeof openDatabase>) => Promise<void>,
  ) {
    const db = openDatabase(join(dir, 'platform.db'));
    const documents = new SqliteDocumentStore(db);
    try {
      await work(documents, db);
    } finally {
      await documents.close();
      db.close();
    }
  }

  it("are stored on a connection of their own: this connection's settings stay as they are, and a write that cannot be made stores nothing", async () => {
    await withDocuments(async (documents, db) => {
      const FULL = 2;
      const settings = () => [
        db.pragma('synchronous', { simple: true }),
        db.pragma('wal_autocheckpoint', { simple: true }),
      ];
      const doc = { member_id: 7, status: 'pending' };
      await documents.write([{ collection: aside, id: '7', doc, position: at(1) }], undefined, true);
      expect(await documents.get(aside, '7')).toEqual({ id: '7', doc, position: at(1) });
      expect(settings()).toEqual([FULL, 1000]);
      const unwritable = { member_id: 8, big: BigInt(1) };
      await expect(
        documents.write([{ collection: aside, id: '8', doc: unwritable, position: at(2) }], undefined, true),
      ).rejects.toThrow();
      expect(await documents.get(aside, '8')).toBeNull();
      expect(await documents.count(aside)).toBe(1);
    });
  });

  it('are seen by every read that follows, while still on their way as once stored', async () => {
    await withDocuments(async (documents) => {
      // Another connection holds the write lock: the thread cannot store what it is handed yet.
      const blocker = new BetterSqlite3(join(dir, 'platform.db'));
      blocker.exec('BEGIN IMMEDIATE');
      try {
        const first = Array.from({ length: 50 }, (_, i) => ({
          collection: aside,
          id: String(i),
          doc: { member_id: i, round: 1 },
          position: at(100 + i),
        }));
        await documents.write(first, undefined, true);
        await documents.write(
          [
            { collection: aside, id: '7', doc: { member_id: 7, round: 2 }, position: at(300) },
            { collection: aside, id: '3', doc: null, position: at(301) },
          ],
          undefined,
          true,
        );
        expect(await documents.get(aside, '7')).toEqual({
          id: '7',
          doc: { member_id: 7, round: 2 },
          position: at(300),
        });
        expect(await documents.get(aside, '3')).toBeNull();
        expect(await documents.get(aside, '5')).toEqual({
          id: '5',
          doc: { member_id: 5, round: 1 },
          position: at(105),
        });
      } finally {
        blocker.exec('COMMIT');
        blocker.close();
      }
      // These wait for the thread, now free to store.
      expect((await documents.find(aside, { round: 1 })).map((d) => d.id)).toHaveLength(48);
      expect(await documents.count(aside)).toBe(49);
    });
    // And on the disk, for a connection opened afterwards.
    const db = new BetterSqlite3(join(dir, 'platform.db'), { readonly: true });
    const stored = db
      .prepare<[string], { n: number }>('SELECT count(*) AS n FROM documents WHERE collection = ? AND doc IS NOT NULL')
      .get(aside);
    db.close();
    expect(stored?.n).toBe(49);
  });

  it('are stored before any durable write that follows, so that another process seeing it sees them too', async () => {
    await withDocuments(async (documents) => {
      const blocker = new BetterSqlite3(join(dir, 'platform.db'));
      blocker.exec('BEGIN IMMEDIATE');
      const rows = Array.from({ length: 200 }, (_, i) => ({
        collection: aside,
        id: String(i),
        doc: { member_id: i },
        position: at(i + 1),
      }));
      await documents.write(rows, undefined, true);
      // A rebuild's offer, in another collection: it waits for the aside instead of overtaking it.
      const offered = documents.write([
        { collection: 'projection_rebuilds', id: 'credentials', doc: { position: at(200) }, position: at(1) },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      blocker.exec('COMMIT');
      blocker.close();
      await offered;
      const other = new BetterSqlite3(join(dir, 'platform.db'), { readonly: true });
      const count = (collection: string) =>
        other
          .prepare<[string], { n: number }>('SELECT count(*) AS n FROM documents WHERE collection = ?')
          .get(collection)?.n;
      try {
        expect([count('projection_rebuilds'), count(aside)]).toEqual([1, 200]);
      } finally {
        other.close();
      }
    });
  });

  it('report a write the database refused to the next call on its collection, and to no other', async () => {
    await withDocuments(async (documents) => {
      // No position: the thread's NOT NULL constraint refuses it, after the write was handed over.
      const refused = { collection: aside, id: '1', doc: { member_id: 1 }, position: null as unknown as string };
      await documents.write([refused], undefined, true);
      await documents.write([{ collection: 'credentials', id: '2', doc: { member_id: 2 }, position: at(2) }]);
      expect(await documents.count('credentials')).toBe(1);
      await expect(documents.count(aside)).rejects.toThrow(
        /storing a rebuild's documents failed: NOT NULL constraint failed: documents.position/,
      );
      // Told once: what follows works again.
      await documents.write([{ collection: aside, id: '1', doc: { member_id: 1 }, position: at(3) }], undefined, true);
      expect(await documents.get(aside, '1')).toEqual({ id: '1', doc: { member_id: 1 }, position: at(3) });
    });
  });
});
