import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { START, type RecordedEvent } from '../../src/stores/ports';
import { openDatabase, openSqliteStores, SqliteDocumentStore, SqliteSessionStore } from '../../src/stores/sqlite';
import { event } from './sqlite-support';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
