import type { Statement } from 'better-sqlite3';
import type { IdempotencyRecord, IdempotencyRecords, KeptAnswer } from '../ports';
import type { Database } from './database';

const PURGE_INTERVAL_MS = 60_000;

type Row = { fingerprint: string; holder: string | null; status: number | null; body: string | null };

/** Idempotency records in the embedded file: each statement is atomic, across processes too. */
export class SqliteIdempotencyRecords implements IdempotencyRecords {
  private readonly take: Statement<[string, string, string, number, number]>;
  private readonly select: Statement<[string, number], Row>;
  private readonly answer: Statement<[number, string | null, number, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly purge: Statement<[number]>;
  private lastPurge = Date.now();

  /** The database belongs to the caller, who closes it after this store. */
  constructor(db: Database) {
    // Inserted, or an expired record taken over; a live one stays, and nothing changes.
    this.take = db.prepare(`
      INSERT INTO idempotency_keys (key, holder, fingerprint, status, body, expires_at) VALUES (?, ?, ?, NULL, NULL, ?)
      ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, fingerprint = excluded.fingerprint, status = NULL, body = NULL,
        expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= ?`);
    this.select = db.prepare(
      'SELECT fingerprint, holder, status, body FROM idempotency_keys WHERE key = ? AND expires_at > ?',
    );
    this.answer = db.prepare(
      'UPDATE idempotency_keys SET status = ?, body = ?, expires_at = ?, holder = NULL WHERE key = ? AND holder = ?',
    );
    this.remove = db.prepare('DELETE FROM idempotency_keys WHERE key = ? AND holder = ?');
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
  }

  async begin(key: string, holder: string, fingerprint: string, leaseMs: number): Promise<IdempotencyRecord | null> {
    const now = Date.now();
    this.purgeNowAndThen(now);
    if (this.take.run(key, holder, fingerprint, now + leaseMs, now).changes > 0) return null;
    const row = this.select.get(key, now);
    // Released between the two statements: the key is free again, for this request to take.
    if (!row) return this.begin(key, holder, fingerprint, leaseMs);
    return row.status === null
      ? { state: 'in_flight', fingerprint: row.fingerprint }
      : { state: 'answered', fingerprint: row.fingerprint, answer: { status: row.status, body: row.body } };
  }

  async answered(key: string, holder: string, answer: KeptAnswer, ttlMs: number): Promise<void> {
    this.answer.run(answer.status, answer.body, Date.now() + ttlMs, key, holder);
  }

  async release(key: string, holder: string): Promise<void> {
    this.remove.run(key, holder);
  }

  /** Records nobody asks for again are deleted once expired, at most once a minute. */
  private purgeNowAndThen(now: number): void {
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    this.purge.run(now);
  }
}
