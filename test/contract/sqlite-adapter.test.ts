import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { eventIds } from '../../src/stores/event-ids';
import { InvalidPosition, START, WrongExpectedVersion, type NewEvent } from '../../src/stores/ports';
import { openDatabase, openSqliteStores, SqliteDocumentStore } from '../../src/stores/sqlite';

function event(type: string, requestId = randomUUID()): NewEvent {
  return { type, data: {}, metadata: { actor: { kind: 'cli', id: null }, request_id: requestId, time: new Date().toISOString() } };
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
      await expect(stores.events.append('a', [{ ...event('Again'), id: opened?.id }], 1)).rejects.toBeInstanceOf(WrongExpectedVersion);
      await expect(stores.events.append('b', [{ ...event('Elsewhere'), id: opened?.id }], 'no_stream')).rejects.toBeInstanceOf(
        WrongExpectedVersion,
      );
      expect((await stores.events.readStream('a')).map((e) => e.type)).toEqual(['Opened', 'Unnamed']);
      expect(await stores.events.readStream('b')).toEqual([]);
    } finally {
      await stores.close();
    }
    const db = new BetterSqlite3(join(dir, 'platform.db'), { readonly: true });
    const ids = db.prepare<[], { id: string | null }>('SELECT id FROM events').all().map((row) => row.id);
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
    old.prepare('INSERT INTO events (stream, revision, type, data, metadata) VALUES (?, 0, ?, ?, ?)').run(
      's',
      'Old',
      '{}',
      JSON.stringify(event('Old').metadata),
    );
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
  it("store the documents without an fsync, then put the connection's own settings back, even when they fail", async () => {
    const db = openDatabase(join(dir, 'platform.db'));
    const documents = new SqliteDocumentStore(db);
    try {
      const FULL = 2;
      const settings = () => [db.pragma('synchronous', { simple: true }), db.pragma('wal_autocheckpoint', { simple: true })];
      // SQLite's default threshold: a scratch write raises it only while it commits.
      expect(settings()).toEqual([FULL, 1000]);
      const doc = { member_id: 7, status: 'pending' };
      await documents.write([{ collection: 'credentials__rebuild', id: '7', doc, position: '00000000000000000001' }], undefined, true);
      expect(await documents.get('credentials__rebuild', '7')).toEqual({ id: '7', doc, position: '00000000000000000001' });
      expect(settings()).toEqual([FULL, 1000]);
      const unwritable = { member_id: 8, big: BigInt(1) };
      await expect(documents.write([{ collection: 'credentials__rebuild', id: '8', doc: unwritable, position: '00000000000000000002' }], undefined, true)).rejects.toThrow();
      expect(settings()).toEqual([FULL, 1000]);
      expect(await documents.get('credentials__rebuild', '8')).toBeNull();
    } finally {
      await documents.close();
      db.close();
    }
  });
});
