import type { Statement } from 'better-sqlite3';
import type { SessionIdentity, SessionMove, SessionStore } from '../ports';
import { sessionRenewal } from '../session-renewal';
import type { Database } from './database';

const PURGE_INTERVAL_MS = 60_000;

type Row = { data: string; expires_at: number; moved_to: string | null };

export class SqliteSessionStore implements SessionStore {
  private readonly select: Statement<[string], Row>;
  private readonly insert: Statement<[string, string, number]>;
  private readonly replace: Statement<[string, number, string, number]>;
  private readonly replaceData: Statement<[string, string, number]>;
  private readonly renew: Statement<[number, string, number, number]>;
  private readonly liveUntil: Statement<[string, number], { expires_at: number }>;
  private readonly markMoved: Statement<[string, string]>;
  private readonly remove: Statement<[string]>;
  private readonly removeExpired: Statement<[string, number]>;
  private readonly purge: Statement<[number]>;
  private readonly removeHolding: Statement<[string, number, string]>;
  private readonly move: (from: string, to: string, move: SessionMove) => Record<string, unknown>;
  private lastPurge = Date.now();

  /** The database belongs to the caller, who closes it after this store. */
  constructor(db: Database) {
    this.select = db.prepare('SELECT data, expires_at, moved_to FROM sessions WHERE id = ?');
    this.insert = db.prepare('INSERT INTO sessions (id, data, expires_at) VALUES (?, ?, ?)');
    // Only a live row: one destroyed, moved or expired since the request read it stays gone.
    this.replace = db.prepare(
      'UPDATE sessions SET data = ?, expires_at = ? WHERE id = ? AND expires_at > ? AND moved_to IS NULL',
    );
    // The data alone while the session lives long enough: moving its expiry in the index made an
    // update five times as costly, and a write request updates the session.
    this.replaceData = db.prepare('UPDATE sessions SET data = ? WHERE id = ? AND expires_at >= ? AND moved_to IS NULL');
    // Only when the session would end before it must: a renewal that changes nothing writes nothing.
    this.renew = db.prepare(
      'UPDATE sessions SET expires_at = ? WHERE id = ? AND expires_at > ? AND expires_at < ? AND moved_to IS NULL',
    );
    this.liveUntil = db.prepare('SELECT expires_at FROM sessions WHERE id = ? AND expires_at > ? AND moved_to IS NULL');
    // A moved row keeps only the way to its successor, for the logouts still running on it.
    this.markMoved = db.prepare("UPDATE sessions SET moved_to = ?, data = '{}' WHERE id = ?");
    this.remove = db.prepare('DELETE FROM sessions WHERE id = ?');
    // Guarded by the expiry too: another process may have renewed the session since the read.
    this.removeExpired = db.prepare('DELETE FROM sessions WHERE id = ? AND expires_at <= ?');
    this.purge = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
    // A moved row's data is '{}': it names nobody, and a running logout follows its successor.
    this.removeHolding = db.prepare('DELETE FROM sessions WHERE json_extract(data, ?) = ? AND id <> ?');
    // One immediate transaction: no other process moves or updates the session between the read
    // and the move.
    const moveNow = db.transaction((from: string, to: string, move: SessionMove) => {
      const now = Date.now();
      const row = this.select.get(from);
      const live = row !== undefined && row.expires_at > now && row.moved_to === null;
      const data = move.change(live ? parse(row.data) : null);
      if (live) this.markMoved.run(to, from);
      else if (row?.moved_to && move.successor) this.changeSuccessor(row.moved_to, move.successor, now);
      this.insert.run(to, JSON.stringify(data), now + move.ttlMs(data));
      return data;
    });
    this.move = (from, to, move) => moveNow.immediate(from, to, move);
  }

  /** Follows the moves from `id` to the live session at their end, and changes its data there. */
  private changeSuccessor(id: string, successor: NonNullable<SessionMove['successor']>, now: number): void {
    const row = this.select.get(id);
    if (!row || row.expires_at <= now) return;
    if (row.moved_to !== null) return this.changeSuccessor(row.moved_to, successor, now);
    this.replaceData.run(JSON.stringify(successor(parse(row.data))), id, now);
  }

  async get(id: string): Promise<Record<string, unknown> | null> {
    const row = this.select.get(id);
    if (!row || row.moved_to !== null) return null;
    const now = Date.now();
    if (row.expires_at <= now) {
      this.removeExpired.run(id, now);
      return null;
    }
    return parse(row.data);
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

  async touch(id: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const { needed, until } = sessionRenewal(now, ttlMs);
    // One read in the common case, as the guarded update it replaces cost: a write only when due.
    const live = this.liveUntil.get(id, now);
    if (!live) return false;
    if (live.expires_at < needed) this.renew.run(until, id, now, needed);
    return true;
  }

  async regenerate(from: string, to: string, move: SessionMove): Promise<Record<string, unknown>> {
    return this.move(from, to, move);
  }

  async destroy(id: string): Promise<void> {
    this.remove.run(id);
  }

  async endAllOf({ side, id }: SessionIdentity, except = ''): Promise<number> {
    return this.removeHolding.run(`$.${side}.id`, id, except).changes;
  }

  /** Nothing to release: the shared database is closed by whoever opened it. */
  async close(): Promise<void> {}
}

function parse(data: string): Record<string, unknown> {
  return JSON.parse(data) as Record<string, unknown>;
}
