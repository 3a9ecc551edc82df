import BetterSqlite3 from 'better-sqlite3';
import { ProjectionsClaimed } from '../ports';
import { preparePrivateFile } from './private-files';

/**
 * Holds `<dataDir>/projections.lock` for as long as this process runs the projections: a SQLite
 * file in exclusive locking mode keeps the lock it took on its first write until its connection
 * closes, and the operating system drops it when the process dies, so a crash frees it at once
 * and no lease can go stale. Answers the function that lets it go.
 */
export function lockProjections(file: string): () => void {
  preparePrivateFile(file);
  const lock = new BetterSqlite3(file, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    lock.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    lock.exec('DELETE FROM holder');
  } catch (err) {
    lock.close();
    // By its code: jest, for one, may hand this module another copy of the driver's error class.
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') throw new ProjectionsClaimed(file);
    throw err;
  }
  return () => lock.close();
}
