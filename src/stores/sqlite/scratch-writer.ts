import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DocumentWrite, Position, StoredDocument } from '../ports';

/**
 * Writes handed over and not yet stored before a new one waits: the rebuild stays at most this
 * far ahead of the disk, and holds the documents of these writes only.
 */
const MOST_ON_THEIR_WAY = 2;
/** The thread ends once it has had nothing to store for this long: a service keeps no idle thread. */
const IDLE_MS = 1_000;

type Row = [collection: string, id: string, doc: string | null, position: Position];

interface Handed {
  rows: Row[];
  collections: ReadonlySet<string>;
  stored: Promise<void>;
  settle: () => void;
}

const keyOf = (collection: string, id: string): string => `${collection}\u0000${id}`;

/** What the thread's connection needs from the store that starts it. */
export interface ScratchThreadSettings {
  /** The statement that stores one row: collection, id, doc (JSON or null), position. */
  upsert: string;
  /** wal_autocheckpoint of the thread's connection. */
  checkpointPages: number;
  busyTimeoutMs: number;
}

/**
 * A rebuild's scratch writes, stored by a second thread with its own connection while the rebuild
 * goes on: storing was a fifth of a rebuild's time on the main thread. Each write is one
 * transaction, in the order handed over. A document whose write is on its way is read from here;
 * anything else that reads or writes the documents waits for `drain` first, so it sees every
 * write handed over, as if each had been stored at once.
 */
export class ScratchWriter {
  private worker: Worker | undefined;
  private readonly handed: Handed[] = [];
  /** The last row handed over for each document not yet stored. */
  private readonly onTheirWay = new Map<string, Row>();
  /** What went wrong with a write, and the collections it touched, until someone is told. */
  private failure: { error: Error; collections: ReadonlySet<string> } | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly settings: ScratchThreadSettings,
  ) {}

  /** Hands the writes to the thread; resolves once no more than MOST_ON_THEIR_WAY are still on their way. */
  async write(writes: DocumentWrite[]): Promise<void> {
    this.throwFailure();
    const rows = writes.map((w): Row => [
      w.collection,
      w.id,
      w.doc === null ? null : JSON.stringify(w.doc),
      w.position,
    ]);
    for (const row of rows) this.onTheirWay.set(keyOf(row[0], row[1]), row);
    let settle!: () => void;
    const stored = new Promise<void>((resolve) => (settle = resolve));
    this.handed.push({ rows, collections: new Set(rows.map((row) => row[0])), stored, settle });
    this.thread().postMessage(rows);
    while (this.handed.length > MOST_ON_THEIR_WAY) await this.handed[0]!.stored;
    this.throwFailure();
  }

  /**
   * The document as the last write on its way leaves it; undefined when none is on its way. Throws
   * when a write of its collection failed.
   */
  pending<Doc>(collection: string, id: string): StoredDocument<Doc> | null | undefined {
    // Every read of the live read models asks: with nothing on its way, no key is built.
    if (!this.busy()) return undefined;
    if (this.failure?.collections.has(collection)) this.throwFailure();
    const row = this.onTheirWay.get(keyOf(collection, id));
    if (!row) return undefined;
    // Parsed again, as a read from the database would be: the caller gets a copy of its own.
    return row[2] === null ? null : { id, doc: JSON.parse(row[2]) as Doc, position: row[3] };
  }

  /**
   * Waits until every write handed over is stored, or only those that touch `collections` when
   * given (the thread stores them in order); throws what went wrong with them.
   */
  async drain(collections?: readonly string[]): Promise<void> {
    const concerned = (touched: ReadonlySet<string>): boolean =>
      !collections || collections.some((c) => touched.has(c));
    const last = this.handed.findLast((h) => concerned(h.collections));
    if (last) await last.stored;
    if (this.failure && concerned(this.failure.collections)) this.throwFailure();
  }

  /** Waits until every write handed over is stored or refused; throws nothing (see `drain`). */
  async settled(): Promise<void> {
    await this.handed.at(-1)?.stored;
  }

  /** Whether a write is on its way, or failed without anyone told yet. */
  busy(): boolean {
    return this.handed.length > 0 || this.failure !== undefined;
  }

  /** Drains, then ends the thread, even when a write failed. */
  async close(): Promise<void> {
    try {
      await this.drain();
    } finally {
      await this.stop();
    }
  }

  private thread(): Worker {
    clearTimeout(this.idle);
    if (this.worker) return this.worker;
    const worker = new Worker(join(__dirname, 'scratch-thread.js'), {
      workerData: { file: this.file, ...this.settings },
    });
    worker.on('message', (error: string | null) => this.stored(error));
    worker.on('error', (err) => this.lost(err));
    worker.on('exit', () => {
      if (this.worker === worker) this.lost(new Error('the thread storing scratch writes ended'));
    });
    this.worker = worker;
    return worker;
  }

  private stored(error: string | null): void {
    const done = this.handed.shift();
    if (!done) return;
    if (error !== null)
      this.failure ??= {
        error: new Error(`storing a rebuild's documents failed: ${error}`),
        collections: done.collections,
      };
    for (const row of done.rows) {
      const key = keyOf(row[0], row[1]);
      // A later write of the same document may be on its way behind this one.
      if (this.onTheirWay.get(key) === row) this.onTheirWay.delete(key);
    }
    done.settle();
    if (this.handed.length === 0) this.idle = setTimeout(() => void this.stop(), IDLE_MS).unref();
  }

  /** The thread failed or ended: the writes on their way count as failed; with none, the next write starts another. */
  private lost(err: Error): void {
    this.worker = undefined;
    const lost = this.handed.splice(0);
    if (lost.length === 0) return;
    const collections = new Set(lost.flatMap((h) => [...h.collections]));
    this.failure ??= {
      error: new Error(`storing a rebuild's documents failed: ${err.message}`, { cause: err }),
      collections,
    };
    this.onTheirWay.clear();
    for (const handed of lost) handed.settle();
  }

  private async stop(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    if (!worker || this.handed.length > 0) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage(null);
    await exited;
  }

  private throwFailure(): void {
    const failure = this.failure;
    if (!failure) return;
    this.failure = undefined;
    throw failure.error;
  }
}
