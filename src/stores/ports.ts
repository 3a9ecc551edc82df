/**
 * The ports every store adapter implements. Everything outside src/stores talks to these only.
 *
 * Semantics follow EventStoreDB and MongoDB, so that the embedded SQLite adapters never promise
 * more than production can keep: no transaction spans two streams, nor the event store and the
 * read models.
 */
import type { EventMetadata } from '../shared/domain/metadata';
import type { IdempotencyRecords } from './idempotency-port';
import type { Fence, Leases } from './lease-port';
import type { RateLimits } from './rate-limit-ports';
import type { SessionStore } from './session-port';

// The domain owns the metadata; adapters store it as it is and import it from their port.
export type { ActorKind, EventMetadata } from '../shared/domain/metadata';

/**
 * Position in the global log. Opaque to callers, but every adapter encodes it so that plain
 * string comparison (`a < b`) orders positions in commit order. `START` sorts before every event.
 */
export type Position = string;
export const START: Position = '';

/** Expected revision of a stream before an append: the last event's revision, or a condition. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | number;

export interface NewEvent<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /**
   * The event's id, a UUID (see eventIds in ./event-ids). An append retried with the same ids
   * after an unknown outcome is recognised and applied once. The adapter draws one when absent.
   */
  id?: string;
}

export interface RecordedEvent<Type extends string = string, Data = Record<string, unknown>> extends NewEvent<
  Type,
  Data
> {
  stream: string;
  /** 0-based revision of the event within its stream. */
  revision: number;
  position: Position;
}

export interface AppendResult {
  /** Revision of the last event appended: the next append's expected revision. */
  nextExpectedRevision: number;
  /** Global position of the last event appended. */
  position: Position;
}

export class WrongExpectedVersion extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual revision, or 'no_stream' when it does not exist. */
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersion';
  }
}

/** The stream was deleted (soft-deleted and then truncated, or tombstoned): nothing can be appended to it. */
export class StreamDeleted extends Error {
  constructor(readonly stream: string) {
    super(`stream ${stream} has been deleted`);
    this.name = 'StreamDeleted';
  }
}

/**
 * The store did not answer in time, or could not be reached, after the adapter's own retries.
 * For an append, whether it took effect is unknown: the same ids make a later retry safe.
 */
export class StoreUnavailable extends Error {
  /** No retry overcomes it (the store refuses the service's credentials or rights): the operator must act. */
  readonly permanent: boolean;

  constructor(
    readonly operation: string,
    options?: { cause?: unknown; permanent?: boolean },
  ) {
    super(`${operation}: the store is unavailable`, options);
    this.name = 'StoreUnavailable';
    this.permanent = options?.permanent ?? false;
  }
}

/** A position this store cannot interpret: ill-formed, or from another kind of store. */
export class InvalidPosition extends RangeError {
  constructor(
    readonly position: Position,
    detail: string,
  ) {
    super(`${detail}: ${JSON.stringify(position)}`);
    this.name = 'InvalidPosition';
  }
}

export interface ReadStreamOptions {
  /** 'backwards' reads from the last event towards the first. */
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

/**
 * Told when a subscription's connection to the store comes and goes, so that a consumer keeping a
 * replica can tell how long it has not heard from the store. The embedded store never drops.
 */
export interface SubscriptionObserver {
  /** The store confirmed the subscription: what is committed from now on will be delivered. */
  onLive?(): void;
  /** The connection was lost; the adapter subscribes again after `retryInMs`. */
  onDropped?(error: unknown, retryInMs: number): void;
}

export interface EventStore {
  /**
   * Appends events atomically to one stream, or raises WrongExpectedVersion and appends nothing.
   * Appending an empty list is not allowed.
   */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** The stream's events in revision order (or reverse); an empty list when it does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Up to maxCount events of the global log strictly after `from`, in commit order. */
  readAll(from: Position, maxCount: number): Promise<RecordedEvent[]>;
  /**
   * Every event strictly after `from`, in commit order, then each new one as it is committed.
   * Pull-based: the adapter reads ahead only as far as the consumer pulls. Ends when the
   * iterator's return() is called or the signal aborts. Fails with InvalidPosition when `from`
   * is after the head of the log (a checkpoint from another or a restored database).
   */
  subscribeAll(from: Position, signal?: AbortSignal, observer?: SubscriptionObserver): AsyncIterable<RecordedEvent>;
  /** Position of the last event in the global log, START when empty. */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}

export type Scalar = string | number | boolean | null;

export interface StoredDocument<Doc = Record<string, unknown>> {
  id: string;
  doc: Doc;
  /** Position of the last event applied to this document. */
  position: Position;
}

/**
 * One change to a read-model document. `doc: null` deletes it. The write is applied only when
 * `position` is after the position stored with the document (deletions keep a tombstone with
 * their position), so replaying an event changes nothing.
 */
export interface DocumentWrite {
  collection: string;
  id: string;
  doc: Record<string, unknown> | null;
  position: Position;
}

export interface CollectionSpec {
  name: string;
  /** Top-level fields that `find` filters on, or that `findInRange` ranges over. */
  indexes: string[];
}

/** Values of one top-level string field after `after` (exclusive; no lower bound when absent) up to `upTo` (inclusive). */
export interface StringRange {
  field: string;
  after?: string;
  upTo: string;
}

export interface DocumentStore {
  /** Creates the collections' indexes; idempotent. */
  ensureCollections(specs: CollectionSpec[]): Promise<void>;
  get<Doc = Record<string, unknown>>(collection: string, id: string): Promise<StoredDocument<Doc> | null>;
  /** The documents of these ids, in their order, null for each missing: one read for many, as a replay needs. */
  getMany<Doc = Record<string, unknown>>(
    collection: string,
    ids: readonly string[],
  ): Promise<(StoredDocument<Doc> | null)[]>;
  /** Documents whose top-level fields equal every value in `where`, ordered by id, with their positions. */
  find<Doc = Record<string, unknown>>(
    collection: string,
    where: Record<string, Scalar>,
  ): Promise<StoredDocument<Doc>[]>;
  /**
   * Documents whose string field lies in the range, ordered by that field, then by id; a field
   * absent, null or not a string is in no range. Strings compare by code unit, so ISO 8601
   * instants of one format compare as time does. Served by the field's index (CollectionSpec).
   */
  findInRange<Doc = Record<string, unknown>>(collection: string, range: StringRange): Promise<StoredDocument<Doc>[]>;
  /** How many documents the collection holds (tombstones are not documents), without reading them. */
  count(collection: string): Promise<number>;
  /**
   * Applies the writes (each guarded by its position) and then records the checkpoint, if given;
   * a checkpoint only moves forward.
   * Not atomic across documents in production: the position guard makes a retry harmless.
   * `scratch`: writes of a rebuild's aside collection, which a crash only sends back to the start
   * of the rebuild; a store may then skip waiting for them to reach the disk, as long as the next
   * durable write (the swap that follows) makes them durable too. It may even resolve before they
   * are stored, as long as every later call sees them and a failure to store them rejects a later
   * scratch write, or the next call that reads or writes their collection.
   */
  write(
    writes: DocumentWrite[],
    checkpoint?: { projection: string; position: Position },
    scratch?: boolean,
  ): Promise<void>;
  checkpoint(projection: string): Promise<Position>;
  /** The checkpoints of these projections, in their order, in one read (START for each never written). */
  checkpoints(projections: readonly string[]): Promise<Position[]>;
  /**
   * Removes every document and tombstone of the collection (for rebuilds), and its indexes with
   * them: call ensureCollections before filling it again.
   */
  dropCollection(collection: string): Promise<void>;
  /**
   * Swaps a rebuilt collection in: `target` takes the documents, tombstones and indexes of
   * `source` (prepared with ensureCollections), which is left empty, in one step that readers see
   * whole; then the projection's checkpoint moves forward to `checkpoint.position`. The two steps
   * are separate in production, so callers only swap in a collection at least as recent as the
   * target's checkpoint: a crash between them replays events the position guard ignores.
   */
  replaceCollection(
    target: string,
    source: string,
    checkpoint: { projection: string; position: Position },
  ): Promise<void>;
  /** Forgets the projection's checkpoint, so that it starts again from START. */
  resetCheckpoint(projection: string): Promise<void>;
  /** The records of writes made under an idempotency key, beside the read models (./idempotency-port.ts). */
  readonly idempotency: IdempotencyRecords;
  /**
   * From now on every write, replaceCollection and resetCheckpoint of this store carries the fence
   * (a term of a lease, ./lease-port.ts) and is refused with LeaseLost, changing nothing, once the
   * lease has a newer token: a deposed holder cannot move a checkpoint or an outbox entry. A
   * rebuild's scratch writes to its aside collection are not checked: its swap is. null: unfenced.
   */
  fence(fence: Fence | null): void;
  close(): Promise<void>;
}

export type { Fence, LeaseTerm, Leases } from './lease-port';
export { LeaseLost, PROJECTOR_LEASE } from './lease-port';

export type { IdempotencyRecord, IdempotencyRecords, KeptAnswer } from './idempotency-port';

export type { SessionIdentity, SessionMove, SessionStore } from './session-port';

export interface StoreHealth {
  name: string;
  ok: boolean;
  detail?: string;
}

// The rate-limit port has a file of its own; its types are the ports' as well.
export type { Allowance, LimitPolicy, RateLimiter, RateLimits } from './rate-limit-ports';

/** Another process already runs the projections on these stores. */
export class ProjectionsClaimed extends Error {
  constructor(where: string) {
    super(
      `another process already runs the projections on ${where} (an API with PROJECTIONS=inline, or platform project): ` +
        'only one may write the read models; start API processes beside it with PROJECTIONS=off',
    );
    this.name = 'ProjectionsClaimed';
  }
}

/** The stores the service runs on, whichever adapters implement them. */
export interface Stores {
  events: EventStore;
  documents: DocumentStore;
  sessions: SessionStore;
  rateLimits: RateLimits;
  /** Leases with fencing tokens, beside the read models: the projector's (./lease-port.ts). */
  leases: Leases;
  /**
   * Makes this process the one that runs the projections, the one writer of the live read models,
   * or throws ProjectionsClaimed when another one is. Two writers would swap rebuilds in twice and
   * empty the read models. The embedded stores lock a file until the process ends; the production
   * stores have no such lock: projectors there take turns by the projector lease (`leases`), which
   * `platform project` holds on either kind of store before it claims.
   */
  claimProjections(): void;
  /**
   * A secret key of this installation, kept beside the stores but in none of them (no backup of
   * the log or the read models holds it): the embedded stores keep it in `<dataDir>/<name>.key`,
   * 0600, made on first use; the production stores have none, the deployment gives it.
   */
  localKey(name: string): Buffer | null;
  health(): Promise<StoreHealth[]>;
  close(): Promise<void>;
}
