import { join } from 'node:path';
import type { Stores } from '../ports';
import { openDatabase } from './database';
import { SqliteDocumentStore } from './document-store';
import { SqliteEventStore } from './event-store';
import { SqliteRateLimits } from './rate-limits';
import { SqliteSessionStore } from './session-store';

export { openDatabase, type Database } from './database';
export { SqliteDocumentStore, SqliteEventStore, SqliteSessionStore };

/**
 * The embedded stores: events, read models and sessions in one file, `<dataDir>/platform.db`;
 * shared rate-limit counts beside it in `<dataDir>/rate-limits.db`. Sessions are written through a
 * connection of their own without an fsync per save: a power loss may cost the last logins and
 * renewals (their owners log in again), never an acknowledged append (docs/performance.md).
 */
export function openSqliteStores(dataDir: string): Stores {
  const file = join(dataDir, 'platform.db');
  const db = openDatabase(file);
  const events = new SqliteEventStore(db);
  const documents = new SqliteDocumentStore(db);
  const sessionDb = openDatabase(file, 'NORMAL');
  const sessions = new SqliteSessionStore(sessionDb);
  const rateLimits = new SqliteRateLimits(join(dataDir, 'rate-limits.db'));
  let closing: Promise<void> | undefined;

  return {
    events,
    documents,
    sessions,
    rateLimits,
    async health() {
      try {
        db.prepare('SELECT 1').get();
        return [{ name: 'sqlite', ok: true, detail: file }];
      } catch (error) {
        return [{ name: 'sqlite', ok: false, detail: error instanceof Error ? error.message : String(error) }];
      }
    },
    close() {
      // Subscriptions end first, so none reads from a closed connection.
      closing ??= (async () => {
        await Promise.all([events.close(), documents.close(), sessions.close()]);
        rateLimits.close();
        sessionDb.close();
        db.close();
      })();
      return closing;
    },
  };
}
