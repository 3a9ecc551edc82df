import BetterSqlite3 from 'better-sqlite3';
import { RateLimiterSQLite } from 'rate-limiter-flexible';
import type { LimitPolicy, RateLimiter, RateLimits } from '../ports';
import { memoryRateLimiter } from '../memory-rate-limiter';
import { libraryOptions, rateLimiterOver } from '../rate-limiter';
import { BUSY_TIMEOUT_MS, type Database } from './database';
import { preparePrivateFile } from './private-files';

const TABLE = 'rate_limits';

// The columns RateLimiterSQLite reads and writes (expire in ms since the epoch). Created here, so
// that the table exists before the first count: the library would create it asynchronously.
const SCHEMA = `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)`;

const PURGE_INTERVAL_MS = 5 * 60_000;

/**
 * Rate limits of the embedded stores. Shared limits (logins) are counted in a file of their own
 * beside the event log, so that every process on the data directory sees the same counts, and a
 * count never queues behind an append's fsync nor adds one: synchronous=NORMAL, because a count
 * lost on power loss is worth nothing to anyone. Hot limits (the open API) stay in memory.
 */
export class SqliteRateLimits implements RateLimits {
  private db: Database | undefined;
  private purging: NodeJS.Timeout | undefined;

  /** Opened on the first shared limiter, so commands that count nothing create no file. */
  constructor(private readonly file: string) {}

  async limiter(policy: LimitPolicy): Promise<RateLimiter> {
    const options = libraryOptions(policy);
    if (policy.hot) return memoryRateLimiter(policy);
    const storeClient = this.database();
    return rateLimiterOver(
      new RateLimiterSQLite({
        ...options,
        storeClient,
        storeType: 'better-sqlite3',
        tableName: TABLE,
        tableCreated: true,
      }),
    );
  }

  close(): void {
    clearInterval(this.purging);
    this.db?.close();
  }

  private database(): Database {
    if (this.db) return this.db;
    preparePrivateFile(this.file);
    const db = new BetterSqlite3(this.file);
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(SCHEMA);
    } catch (error) {
      db.close();
      throw error;
    }
    // Expired counts are never read again; without a sweep, every username an attacker tried would stay.
    const purge = db.prepare(`DELETE FROM ${TABLE} WHERE expire < ?`);
    purge.run(Date.now());
    this.purging = setInterval(() => purge.run(Date.now()), PURGE_INTERVAL_MS).unref();
    this.db = db;
    return db;
  }
}
