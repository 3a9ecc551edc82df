import { closeSync, fdatasync, fsync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from './database';

function synced(fd: number, sync: typeof fsync): Promise<void> {
  return new Promise((resolve, reject) => sync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Makes commits durable off the event loop, for a connection with synchronous=NORMAL: in WAL mode
 * such a commit is written to `<file>-wal` (safe from a crash of the process) but not synced, so
 * a power loss could take it. `flush()` answers once everything committed before the call is on
 * disk, with one fdatasync of the WAL on libuv's thread pool, which is what synchronous=FULL does
 * on the event loop at every commit. One sync runs at a time; the commits made meanwhile share
 * the next one (group commit). The WAL may be rewound after a checkpoint, never replaced while
 * this connection is open, so one descriptor serves for the connection's life.
 */
export class LogSync {
  private readonly walFile: string;
  private fd: number | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  /** After a failed sync the kernel may have dropped the pages: no later sync can vouch for them. */
  private failure: unknown;
  /** This connection's last commit, and the last one known to be on disk. */
  private committed = 0;
  private durable = 0;

  constructor(db: Database) {
    this.walFile = `${db.name}-wal`;
  }

  /** Throws if a sync failed: nothing more may be acknowledged from this connection. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Records a commit of this connection, at this log position, as not yet on disk. */
  committedAt(position: number): void {
    this.committed = Math.max(this.committed, position);
  }

  /** Whether a commit of this connection may not be on disk yet. */
  pending(): boolean {
    return this.committed > this.durable;
  }

  /** The last position of this connection known to be on disk. */
  durablePosition(): number {
    return this.durable;
  }

  /** Resolves once every commit made before the call is on disk. */
  flush(): Promise<void> {
    if (this.next) return this.next;
    if (!this.running) return this.start();
    // The running sync may have begun before the caller's commit: the one after it covers it.
    this.next = this.running.then(
      () => this.start(),
      () => this.start(),
    );
    return this.next;
  }

  /** Resolves when the sync in flight is done, or a new one, should none be running. */
  progress(): Promise<void> {
    return this.running ?? this.flush();
  }

  /** Waits for the sync in flight, then closes the WAL; the caller closes the connection after. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private async syncWal(): Promise<void> {
    this.check();
    if (this.fd === undefined) {
      this.fd = openSync(this.walFile, 'r');
      // The WAL may have just been created: its name is durable once its directory is synced, which
      // SQLite's FULL does at a new WAL's first sync.
      const directory = openSync(dirname(this.walFile), 'r');
      try {
        await synced(directory, fsync);
      } finally {
        closeSync(directory);
      }
    }
    await synced(this.fd, fdatasync);
  }

  private start(): Promise<void> {
    this.next = undefined;
    const covers = this.committed;
    const sync = this.syncWal().then(
      () => {
        this.durable = Math.max(this.durable, covers);
      },
      (error: unknown) => {
        this.failure ??= error;
        throw error;
      },
    );
    this.running = sync;
    const settled = (): void => {
      if (this.running === sync) this.running = undefined;
    };
    sync.then(settled, settled);
    return sync;
  }
}
