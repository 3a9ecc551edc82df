import BetterSqlite3 from 'better-sqlite3';
import { preparePrivateFile } from './private-files';

export type Database = BetterSqlite3.Database;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream   TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    type     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    metadata TEXT    NOT NULL,
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
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);
`;

/** Opens (creating if missing) the database file that the SQLite adapters share. */
export function openDatabase(file: string): Database {
  preparePrivateFile(file);
  const db = new BetterSqlite3(file);
  try {
    // First, so that every later statement waits for other processes instead of failing busy.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // An acknowledged append must survive power loss; NORMAL may lose the last commits in WAL mode.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // Immediate, so that processes opening a new file at the same moment create the schema in turn.
    db.transaction(() => db.exec(SCHEMA)).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
