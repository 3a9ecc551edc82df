import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { START, WrongExpectedVersion } from '../../src/stores/ports';
import { openDatabase, openSqliteStores, SqliteEventStore } from '../../src/stores/sqlite';
import { event } from './sqlite-support';
import { eventually } from '../support/eventually';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
      // Both are committed (the second passed its check against the first), neither is on disk yet.
      const reader = openDatabase(join(syncDir, 'platform.db'));
      const committed = () => reader.prepare<[], { n: number }>('SELECT count(*) AS n FROM events').get()!.n;
      await eventually(() => committed() === 2 && held.length === 1, { what: 'both commits, the first sync held' });
      reader.close();
      expect(answered).toEqual([]);
      expect(seen).toEqual([]);
      expect(held).toHaveLength(1);
      held.shift()!();
      await first;
      // The sync in flight began before the second commit, so the second waits for the next one.
      expect(answered).toEqual(['First']);
      await eventually(() => held.length === 1, { what: "the second commit's sync begun" });
      await delay(50);
      expect(seen).toEqual(['First']);
      held.shift()!();
      await second;
      await eventually(() => seen.length === 2, { what: 'the subscriber handed the second event' });
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
