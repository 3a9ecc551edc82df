import { randomUUID } from 'node:crypto';
import type { Statement, Transaction } from 'better-sqlite3';
import { InvalidPosition, START, WrongExpectedVersion } from '../ports';
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  ReadStreamOptions,
  RecordedEvent,
  SubscriptionObserver,
} from '../ports';
import type { Database } from './database';
import { LogSync } from './log-sync';

const BATCH_SIZE = 500;
/** Another process (the CLI, a second API instance) may append to the file: look again this often. */
const POLL_INTERVAL_MS = 100;
const POSITION_DIGITS = 20;
/** PRAGMA synchronous answers 1 for NORMAL. */
const NORMAL = 1;

/**
 * A row as an array, in this column order: better-sqlite3's raw mode spares an object per row,
 * which a rebuild reading a million events feels.
 */
const COLUMNS = 'position, stream, revision, type, data, metadata, id';
type EventRow = [
  position: number,
  stream: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
  id: string | null,
];

/** Zero-padded so that string order is commit order, as the port promises. */
function encodePosition(sequence: number): Position {
  return String(sequence).padStart(POSITION_DIGITS, '0');
}

function decodePosition(position: Position): number {
  if (position === START) return 0;
  if (!/^\d{20}$/.test(position)) throw new InvalidPosition(position, 'not a SQLite event store position');
  return Number(position);
}

function toRecorded(row: EventRow): RecordedEvent {
  const event: RecordedEvent = {
    stream: row[1],
    revision: row[2],
    position: encodePosition(row[0]),
    type: row[3],
    data: JSON.parse(row[4]) as Record<string, unknown>,
    metadata: JSON.parse(row[5]) as EventMetadata,
  };
  // Set after, not spread in: every row with an id then builds an object of one shape, with no copy.
  if (row[6] !== null) event.id = row[6];
  return event;
}

/** An event as its row holds it: what a retry of the same append must match exactly. */
interface StoredForm {
  type: string;
  data: string;
  metadata: string;
  id: string | undefined;
}

function storedForm(event: NewEvent): StoredForm {
  return { type: event.type, data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata), id: event.id };
}

type IdRow = { stream: string; revision: number; position: number } & Omit<StoredForm, 'id'>;

function satisfies(expected: ExpectedRevision, actual: number | 'no_stream'): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return actual === expected;
  }
}

export class SqliteEventStore implements EventStore {
  private readonly lastRevision: Statement<[string], { revision: number | null }>;
  private readonly insert: Statement<[string, number, string, string, string, string]>;
  private readonly byId: Statement<[string], IdRow>;
  private readonly forwards: Statement<[string, number], EventRow>;
  private readonly backwards: Statement<[string, number], EventRow>;
  private readonly after: Statement<[number, number, number], EventRow>;
  private readonly head: Statement<[], { position: number | null }>;
  private readonly appendTransaction: Transaction<
    (stream: string, events: NewEvent[], expected: ExpectedRevision) => AppendResult
  >;
  /** Present when commits are not synced by SQLite itself (synchronous=NORMAL): appends wait for it. */
  private readonly sync: LogSync | undefined;
  /** Wakes the subscriptions that have caught up, on an append in this process or on close. */
  private readonly waiters = new Set<() => void>();
  /** Counts appends in this process, so a subscription can tell it missed one while it was busy. */
  private appends = 0;
  private closed = false;

  /** The database belongs to the caller, who closes it after this store. */
  constructor(db: Database) {
    this.lastRevision = db.prepare('SELECT max(revision) AS revision FROM events WHERE stream = ?');
    this.insert = db.prepare(
      'INSERT INTO events (stream, revision, type, data, metadata, id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.byId = db.prepare('SELECT stream, revision, position, type, data, metadata FROM events WHERE id = ?');
    this.forwards = db
      .prepare<[string, number], EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream = ? ORDER BY revision LIMIT ?`)
      .raw();
    this.backwards = db
      .prepare<[string, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream = ? ORDER BY revision DESC LIMIT ?`,
      )
      .raw();
    this.head = db.prepare('SELECT max(position) AS position FROM events');
    this.appendTransaction = db.transaction((stream, events, expected) => {
      const forms = events.map(storedForm);
      const earlier = this.appendedBefore(stream, forms, expected);
      if (earlier) return earlier;
      const last = this.lastRevision.get(stream)?.revision ?? null;
      const actual = last ?? 'no_stream';
      if (!satisfies(expected, actual)) throw new WrongExpectedVersion(stream, expected, actual);
      let revision = last ?? -1;
      let sequence = 0;
      for (const { type, data, metadata, id } of forms) {
        revision += 1;
        sequence = Number(this.insert.run(stream, revision, type, data, metadata, id ?? randomUUID()).lastInsertRowid);
      }
      return { nextExpectedRevision: revision, position: encodePosition(sequence) };
    });
    this.after = db
      .prepare<[number, number, number], EventRow>(
        `SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?`,
      )
      .raw();
    this.sync = db.pragma('synchronous', { simple: true }) === NORMAL ? new LogSync(db) : undefined;
  }

  /**
   * Commits at once, in a transaction of its own, and answers once the commit is on disk. With
   * synchronous=NORMAL the sync happens off the event loop, shared by the appends committed while
   * the previous one ran (LogSync): the event loop goes on serving requests meanwhile.
   */
  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`stream ${stream}: nothing to append`);
    if (this.closed) throw new Error(`stream ${stream}: the event store is closed`);
    this.sync?.check();
    // IMMEDIATE takes the write lock before reading the last revision, so that two processes
    // cannot both pass the expected-revision check.
    const result = this.appendTransaction.immediate(stream, events, expected);
    this.appends += 1;
    if (this.sync) {
      this.sync.committedAt(decodePosition(result.position));
      await this.sync.flush();
    }
    this.wakeSubscriptions();
    return result;
  }

  /**
   * The answer of an earlier append of these very events (same ids, same stream, in order, and the
   * same type, data and metadata), as KurrentDB answers a retried write: the same result, nothing
   * appended twice. Ids that name other events, or only some of these, are a conflict. So are alike
   * ids on events that differ: two writers that named their events alike (two instances seeding
   * under one request id) are not one retrying, and answering both as written would let both win a
   * no_stream or exact-revision race. Runs inside the append's transaction.
   */
  private appendedBefore(stream: string, events: StoredForm[], expected: ExpectedRevision): AppendResult | null {
    const first = events[0]?.id;
    const found = first === undefined ? undefined : this.byId.get(first);
    if (!found) return null;
    const rows = events.map((event) => (event.id === undefined ? undefined : this.byId.get(event.id)));
    const startsWhereExpected = typeof expected !== 'number' || found.revision === expected + 1;
    const same = rows.every((row, index) => {
      const event = events[index] as StoredForm;
      return (
        row !== undefined &&
        row.stream === stream &&
        row.revision === found.revision + index &&
        row.type === event.type &&
        row.data === event.data &&
        row.metadata === event.metadata
      );
    });
    if (!same || !startsWhereExpected || (expected === 'no_stream' && found.revision !== 0)) {
      throw new WrongExpectedVersion(stream, expected, this.lastRevision.get(stream)?.revision ?? 'no_stream');
    }
    const last = rows[rows.length - 1] as IdRow;
    return { nextExpectedRevision: last.revision, position: encodePosition(last.position) };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const statement = options.direction === 'backwards' ? this.backwards : this.forwards;
    // LIMIT -1 is SQLite's "no limit".
    return statement.all(stream, options.maxCount ?? -1).map(toRecorded);
  }

  async readAll(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    return this.readDurable(from, maxCount);
  }

  /** The file is always there: the observer hears once that the subscription is live, and never of a drop. */
  async *subscribeAll(
    from: Position,
    signal?: AbortSignal,
    observer?: SubscriptionObserver,
  ): AsyncIterable<RecordedEvent> {
    await this.refuseAfterHead(from);
    observer?.onLive?.();
    let last = from;
    while (!this.stopped(signal)) {
      const appendsBeforeRead = this.appends;
      const batch = await this.readDurable(last, BATCH_SIZE);
      for (const event of batch) {
        yield event;
        last = event.position;
        if (this.stopped(signal)) return;
      }
      // An append that landed while the consumer held an event had no waiter to wake: read again at once.
      if (batch.length < BATCH_SIZE && this.appends === appendsBeforeRead) await this.waitForAppend(signal);
    }
  }

  private async refuseAfterHead(from: Position): Promise<void> {
    const head = await this.headPosition();
    if (from <= head) return;
    throw new InvalidPosition(
      from,
      `after the head of the log (${head || 'empty'}): a checkpoint from another database`,
    );
  }

  private stopped(signal?: AbortSignal): boolean {
    return this.closed || signal?.aborted === true;
  }

  async headPosition(): Promise<Position> {
    const position = this.head.get()?.position ?? null;
    return position === null ? START : encodePosition(position);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeSubscriptions();
    // Appends already committed are synced before the caller closes the database.
    await this.sync?.close();
  }

  /**
   * Events after `from`, up to the last one on disk: what this process hands on (read models,
   * mails) is never something a power loss could take back.
   */
  private async readDurable(from: Position, maxCount: number): Promise<RecordedEvent[]> {
    const after = decodePosition(from);
    // Waits only when nothing after `from` is known to be on disk yet.
    if (this.sync?.pending() && this.sync.durablePosition() <= after) await this.sync.progress();
    // Read at once after the check: a commit made while the flush ran waits for a later read.
    const upTo = this.sync?.pending() ? this.sync.durablePosition() : Number.MAX_SAFE_INTEGER;
    return this.after.all(after, upTo, maxCount).map(toRecorded);
  }

  private wakeSubscriptions(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves on an append in this process, after the poll interval, on abort or on close. */
  private waitForAppend(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, POLL_INTERVAL_MS);
      signal?.addEventListener('abort', wake, { once: true });
      this.waiters.add(wake);
    });
  }
}
