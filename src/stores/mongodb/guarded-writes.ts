import { MongoBulkWriteError, MongoServerError, type AnyBulkWriteOperation } from 'mongodb';
import type { DocumentWrite, Fence, Position } from '../ports';

/**
 * How the MongoDB document store keeps its writes safe to replay and to race: the id order as a
 * stored key, the position guard, one write per document, and duplicate keys read as stale writes.
 */

export interface ReadModelRecord {
  _id: string;
  /** null is a tombstone: it keeps the deletion's position so that an older write cannot revive it. */
  doc: Record<string, unknown> | null;
  position: Position;
  sort_key: string;
  /** The lease token of the last fenced write (DocumentStore.fence); absent when none was fenced. */
  token?: number;
}

const DUPLICATE_KEY = 11000;

/**
 * The embedded adapter's id order, as one string MongoDB can index and compare bytewise:
 * digit-only ids first, by numeric value (length without leading zeros, then digits), then every
 * other id as a plain string. Equal keys ('7', '007') fall back to the id itself.
 */
export function sortKey(id: string): string {
  if (!/^\d+$/.test(id)) return `1${id}`;
  const digits = id.replace(/^0+/, '');
  return `0${String(digits.length).padStart(4, '0')}${digits}`;
}

/** Matches a stored record the write may replace: one with an older position, or none yet. */
export function olderThan(position: Position) {
  return { $or: [{ position: { $lt: position } }, { position: { $exists: false } }] };
}

/**
 * Only the newest write per document goes to the server. An unordered bulk write may apply two
 * upserts of one new id concurrently, and the loser's duplicate-key error would hide a newer write.
 */
export function latestPerDocument(writes: DocumentWrite[]): Map<string, DocumentWrite[]> {
  const latest = new Map<string, Map<string, DocumentWrite>>();
  for (const write of writes) {
    const byId = latest.get(write.collection) ?? new Map<string, DocumentWrite>();
    latest.set(write.collection, byId);
    const current = byId.get(write.id);
    if (!current || current.position < write.position) byId.set(write.id, write);
  }
  return new Map([...latest].map(([collection, byId]) => [collection, [...byId.values()]]));
}

/** Matches a stored record that no later term of the lease wrote: written with this token or an older one, or unfenced. */
export function notNewerThan(token: number) {
  return { $or: [{ token: { $lte: token } }, { token: { $exists: false } }] };
}

/**
 * The position guard, and with a fence the token guard: a record a later term wrote does not
 * match either, and is then stale to this write, as a newer position is.
 */
export function guarded(id: string, position: Position, fence: Fence | null) {
  return fence
    ? { _id: id, $and: [olderThan(position), notNewerThan(fence.token)] }
    : { _id: id, ...olderThan(position) };
}

export function toUpsert(write: DocumentWrite, fence: Fence | null = null): AnyBulkWriteOperation<ReadModelRecord> {
  const fields = { doc: write.doc, position: write.position, sort_key: sortKey(write.id) };
  return {
    updateOne: {
      filter: guarded(write.id, write.position, fence),
      update: { $set: fence ? { ...fields, token: fence.token } : fields },
      upsert: true,
    },
  };
}

/** A query the server ended because its collection was renamed, dropped or its cursor killed. */
const SWAPPED_UNDER_THE_READ = new Set([43 /* CursorNotFound */, 175 /* QueryPlanKilled */, 237 /* CursorKilled */]);

/**
 * A find that spans several batches loses its cursor when a swap renames another collection over
 * its own (renameCollection ends the queries on the target): read once more, from the collection
 * now in place, so that a reader sees the old collection or the new one whole, never a failure.
 */
export async function readAgainIfSwapped<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof MongoServerError && SWAPPED_UNDER_THE_READ.has(Number(error.code)))) throw error;
    return read();
  }
}

/**
 * When the guard does not match because a newer (or the same) position is stored, the upsert
 * tries to insert the id again and fails with a duplicate key: that write is stale, not failed.
 */
export async function skipStale(operation: Promise<unknown>): Promise<void> {
  await duplicateKeysOf(operation);
}

/** The operations (indexes into a bulk write; [0] for one) refused with a duplicate key; any other failure throws. */
export async function duplicateKeysOf(operation: Promise<unknown>): Promise<number[]> {
  try {
    await operation;
    return [];
  } catch (error) {
    if (!isOnlyDuplicateKeys(error)) throw error;
    return error instanceof MongoBulkWriteError ? error.result.getWriteErrors().map((e) => e.index) : [0];
  }
}

function isOnlyDuplicateKeys(error: unknown): boolean {
  if (error instanceof MongoBulkWriteError) {
    const writeErrors = error.result.getWriteErrors();
    return (
      writeErrors.length > 0 &&
      writeErrors.every((writeError) => writeError.code === DUPLICATE_KEY) &&
      error.result.getWriteConcernError() === undefined
    );
  }
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY && !error.writeConcernError;
}
