import type { Statement } from 'better-sqlite3';
import type { SessionStore } from '../ports';
import { sessionRenewal } from '../session-renewal';
import type { Database } from './database';

const PURGE_INTERVAL_MS = 60_000;

export class SqliteSessionStore implements SessionStore {
  private readonly select: Statement<[string], { data: string; expires_at: number }>;
  private readonly insert: Statement<[string, string, number]>;
  private readonly replace: Statement<[string, number, string, number]>;
  private readonly replaceData: Statement<[string, string, number]>;
  private readonly renew: Statement<[number, string, number, number]>;
  private readonly remove: Statement<[string]>;
  private readonly removeExpired: Statement<[string, number]>;
  private readonly purge: Statement<[number]>;
  private lastPurge = Date.now();

  /** The database belongs to the caller, who closes it after this store. */
  constructor(db: Database) {
    this.select = db.prepare('SELECT data, expires_at FROM sessions WHERE id = ?');
    this.insert = db.prepare('INSERT INTO sessions (id, data, expires_at) VALUES (?, ?, ?)');
    // Only a live row: one destroyed or expired since the request read it stays gone.
    this.replace = db.prepare('UPDATE sessions SET data = ?, expires_at = ? WHERE id = ? AND expires_at > ?');
    // The data alone while the session lives long enough: moving its expiry in the index made an
    // update five times as costly, and a write request updates the session.
    this.replaceData = db.prepare('UPDATE sessions SET data = ? WHERE id = ? AND expires_at >= ?');
    // Only when the session would end before it must: a renewal that changes nothing writes nothing.
    this.renew = db.prepare('UPDATE sessions SET expires_at = ? WHERE id = ? AND expires_at > ? AND expires_at < ?');
    this.remove = db.prepare('DELETE FROM sessions WHERE id = ?');
    // Guarded by the expiry too: another process may have renewed the session since the read.
    this.removeExpired = db.prepare('DELETE FROM sessions WHERE id = ? AND expires_at <= ?');
    this.purge = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  }

  async get(id: string): Promise<Record<string, unknown> | null> {
    const row = this.select.get(id);
    if (!row) return null;
    const now = Date.now();
    if (row.expires_at <= now) {
      this.removeExpired.run(id, now);
      return null;
    }
    return JSON.parse(row.data) as Record<string, unknown>;
  }

  async create(id: string, data: Record<string, unknown>, ttlMs: number): Promise<void> {
    const now = Date.now();
    this.insert.run(id, JSON.stringify(data), now + ttlMs);
    // Sessions abandoned without logout are never read again: sweep them now and then.
    if (now - this.lastPurge >= PURGE_INTERVAL_MS) {
      this.lastPurge = now;
      this.purge.run(now);
    }
  }

  /** Renewed as touch renews: the expiry moves only when the session would end too soon. */
  async update(id: string, data: Record<string, unknown>, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const { needed, until } = sessionRenewal(now, ttlMs);
    const json = JSON.stringify(data);
    if (this.replaceData.run(json, id, needed).changes > 0) return true;
    return this.replace.run(json, until, id, now).changes > 0;
  }

  async touch(id: string, ttlMs: number): Promise<void> {
    const now = Date.now();
    const { needed, until } = sessionRenewal(now, ttlMs);
    this.renew.run(until, id, now, needed);
  }

  async destroy(id: string): Promise<void> {
    this.remove.run(id);
  }

  /** Nothing to release: the shared database is closed by whoever opened it. */
  async close(): Promise<void> {}
}
