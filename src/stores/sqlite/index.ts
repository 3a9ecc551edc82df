import { join } from 'node:path';
import type { Stores } from '../ports';
import { openDatabase } from './database';
import { SqliteDocumentStore } from './document-store';
import { SqliteEventStore } from './event-store';
import { SqliteRateLimits } from './rate-limits';
import { SqliteSessionStore } from './session-store';
import { SqliteLeases } from './leases';
import { lockProjections } from './projections-lock';
import { privateKey, tightenDataDirectory } from './private-files';

export { openDatabase, type Database } from './database';
export { SqliteDocumentStore, SqliteEventStore, SqliteLeases, SqliteSessionStore };

/**
 * The embedded stores: events, read models and sessions in one file, `<dataDir>/platform.db`;
 * shared rate-limit counts beside it in `<dataDir>/rate-limits.db`. The connection commits without
 * an fsync each (synchronous=NORMAL); the event store syncs the log before it acknowledges an
 * append, off the event loop and once for the appends committed meanwhile. A power loss may cost
 * the last logins and renewals (their owners log in again) and read-model batches (replayed from
 * the log at start), never an acknowledged append (docs/performance.md, "Issue 16: the write path").
 */
export function openSqliteStores(dataDir: string): Stores {
  tightenDataDirectory(dataDir);
  const file = join(dataDir, 'platform.db');
  const db = openDatabase(file, 'NORMAL');
  const events = new SqliteEventStore(db);
  const documents = new SqliteDocumentStore(db);
  const sessions = new SqliteSessionStore(db);
  const rateLimits = new SqliteRateLimits(join(dataDir, 'rate-limits.db'));
  let closing: Promise<void> | undefined;
  let releaseProjections: (() => void) | undefined;

  return {
    events,
    documents,
    sessions,
    rateLimits,
    leases: new SqliteLeases(db),
    claimProjections() {
      releaseProjections ??= lockProjections(join(dataDir, 'projections.lock'));
    },
    localKey: (name) => privateKey(join(dataDir, `${name}.key`)),
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
        db.close();
        releaseProjections?.();
      })();
      return closing;
    },
  };
}
