import type { Statement, Transaction } from 'better-sqlite3';
import { LeaseLost, type Fence, type LeaseTerm, type Leases } from '../lease-port';
import type { Database } from './database';

interface LeaseRow {
  holder: string;
  token: number;
  expires_at: number;
}

const termOf = (row: LeaseRow): LeaseTerm => ({ holder: row.holder, token: row.token, expiresAt: row.expires_at });

/**
 * Leases in the `leases` table of the shared database file. Each step is one immediate
 * transaction, so two processes on the file (two projectors on one host) see each other's terms
 * in order. The clock is the host's, which every process on the file shares.
 */
export class SqliteLeases implements Leases {
  private readonly read: Statement<[string], LeaseRow>;
  private readonly acquireTransaction: Transaction<(lease: string, holder: string, ttlMs: number) => LeaseTerm | null>;
  private readonly renewTransaction: Transaction<
    (lease: string, holder: string, token: number, ttlMs: number) => LeaseTerm | null
  >;
  private readonly end: Statement<[number, string, string, number]>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.read = db.prepare('SELECT holder, token, expires_at FROM leases WHERE name = ?');
    const put = db.prepare<[string, string, number, number]>(`
      INSERT INTO leases (name, holder, token, expires_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at`);
    this.acquireTransaction = db.transaction((lease, holder, ttlMs) => {
      const at = now();
      const row = this.read.get(lease);
      const renewing = row !== undefined && row.holder === holder && row.expires_at > at;
      if (row && !renewing && row.expires_at > at) return null;
      const term = { holder, token: renewing ? row.token : (row?.token ?? 0) + 1, expiresAt: at + ttlMs };
      put.run(lease, holder, term.token, term.expiresAt);
      return term;
    });
    this.renewTransaction = db.transaction((lease, holder, token, ttlMs) => {
      const row = this.read.get(lease);
      if (!row || row.holder !== holder || row.token !== token) return null;
      const term = { holder, token, expiresAt: now() + ttlMs };
      put.run(lease, holder, token, term.expiresAt);
      return term;
    });
    this.end = db.prepare('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND token = ?');
  }

  async acquire(lease: string, holder: string, ttlMs: number): Promise<LeaseTerm | null> {
    return this.acquireTransaction.immediate(lease, holder, ttlMs);
  }

  async renew(lease: string, holder: string, token: number, ttlMs: number): Promise<LeaseTerm | null> {
    return this.renewTransaction.immediate(lease, holder, token, ttlMs);
  }

  async release(lease: string, holder: string, token: number): Promise<void> {
    this.end.run(this.now(), lease, holder, token);
  }

  async current(lease: string): Promise<LeaseTerm | null> {
    const row = this.read.get(lease);
    return row ? termOf(row) : null;
  }
}

/**
 * Inside a write transaction: refuses it with LeaseLost when the fence's lease has a newer token.
 * Read in the same transaction as the write, so no new term can start between the check and it.
 */
export function checkFence(db: Database): (fence: Fence | null) => void {
  const token = db.prepare<[string], { token: number }>('SELECT token FROM leases WHERE name = ?');
  return (fence) => {
    if (!fence) return;
    const current = token.get(fence.lease)?.token;
    if (current !== undefined && current > fence.token) throw new LeaseLost(fence, current);
  };
}
