import BetterSqlite3 from 'better-sqlite3';
import { preparePrivateFile } from './private-files';

export type Database = BetterSqlite3.Database;

/** How long a connection waits for another one's write lock (another process, or the scratch thread) before failing busy. */
export const BUSY_TIMEOUT_MS = 5000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream   TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    type     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    metadata TEXT    NOT NULL,
    id       TEXT,
    UNIQUE (stream, revision)
  );
  CREATE TABLE IF NOT EXISTS documents (
    collection TEXT NOT NULL,
    id         TEXT NOT NULL,
    doc        TEXT,
    position   TEXT NOT NULL,
    PRIMARY KEY (collection, id)
  );
  CREATE TABLE IF NOT EXISTS checkpoints (
    projection TEXT PRIMARY KEY,
    position   TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT    PRIMARY KEY,
    data       TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    moved_to   TEXT
  );
  CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    key         TEXT    PRIMARY KEY,
    holder      TEXT,
    fingerprint TEXT    NOT NULL,
    status      INTEGER,
    body        TEXT,
    expires_at  INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
  CREATE TABLE IF NOT EXISTS leases (
    name       TEXT    PRIMARY KEY,
    holder     TEXT    NOT NULL,
    token      INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
`;

/**
 * Files written before event ids had none: the column is added, NULL for those events, and a
 * unique index (which allows many NULLs) makes an id name one event only.
 */
function addEventIds(db: Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(events)').all();
  if (!columns.some((column) => column.name === 'id')) db.exec('ALTER TABLE events ADD COLUMN id TEXT');
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS events_id ON events (id)');
}

/**
 * Files written before a regenerated session left the id of its successor behind: the column is
 * added, NULL (not moved) for the sessions they hold.
 */
function addSessionSuccessors(db: Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(sessions)').all();
  if (!columns.some((column) => column.name === 'moved_to')) db.exec('ALTER TABLE sessions ADD COLUMN moved_to TEXT');
}

/**
 * How a connection's commits reach the disk. FULL: each commit is fsynced before it returns, on the
 * event loop. NORMAL (in WAL mode): no fsync per commit; a crash of the process loses nothing, a
 * power loss the commits since the last sync of the log. The event store syncs the log itself
 * before it acknowledges an append on such a connection (log-sync.ts).
 */
export type Durability = 'FULL' | 'NORMAL';

/** Opens (creating if missing) the database file that the SQLite adapters share. */
export function openDatabase(file: string, durability: Durability = 'FULL'): Database {
  preparePrivateFile(file);
  const db = new BetterSqlite3(file);
  try {
    // First, so that every later statement waits for other processes instead of failing busy.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability}`);
    db.pragma('foreign_keys = ON');
    // What is deleted is overwritten, not left in free pages: a destroyed webhook data key
    // (crypto-shredding, docs/security.md) or session is gone from the file too.
    db.pragma('secure_delete = ON');
    // Immediate, so that processes opening a new file at the same moment create the schema in turn.
    db.transaction(() => {
      db.exec(SCHEMA);
      addEventIds(db);
      addSessionSuccessors(db);
    }).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
