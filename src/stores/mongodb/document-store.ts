import {
  MongoBulkWriteError,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type Filter,
} from 'mongodb';
import {
  START,
  type CollectionSpec,
  type DocumentStore,
  type DocumentWrite,
  type Position,
  type Scalar,
  type StoredDocument,
} from '../ports';
import { checkName } from '../names';

interface ReadModelRecord {
  _id: string;
  /** null is a tombstone: it keeps the deletion's position so that an older write cannot revive it. */
  doc: Record<string, unknown> | null;
  position: Position;
  sort_key: string;
}

/** A record with content (not a tombstone) as the port answers it. */
const storedOf = <Doc>(record: Pick<ReadModelRecord, '_id' | 'doc' | 'position'>): StoredDocument<Doc> => ({
  id: record._id,
  doc: record.doc as Doc,
  position: record.position,
});

interface CheckpointRecord {
  _id: string;
  position: Position;
}

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;
/** Server-side limit on each read: a slow query fails instead of holding a request. */
const READ_MAX_TIME_MS = 10_000;
/**
 * A find returns at most this many documents, or fails saying so rather than truncating in
 * silence or filling the process's memory. Replicas (the key ring) load whole collections with
 * find, so the bound is far above any collection this service keeps (a key ring of 100 000 keys
 * is about 50 MB); a collection near it needs paging, which the port does not offer yet.
 */
export const FIND_LIMIT = 100_000;

export class TooManyDocuments extends Error {
  constructor(collection: string, where: Record<string, Scalar>) {
    super(`find in ${collection} where ${JSON.stringify(where)} matches more than ${FIND_LIMIT} documents`);
    this.name = 'TooManyDocuments';
  }
}
const CHECKPOINTS = 'checkpoints';

/**
 * Read models in MongoDB: one collection per read model, the document under `doc`, and the last
 * applied position beside it. Each write is an upsert guarded by that position, so replaying an
 * event is a no-op; MongoDB does not make the batch atomic, the guard makes retrying it harmless.
 */
export class MongoDocumentStore implements DocumentStore {
  constructor(private readonly db: Db) {}

  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      const collection = this.collection(spec.name);
      await collection.createIndex({ sort_key: 1, _id: 1 }, { name: 'sort_key' });
      for (const field of spec.indexes) {
        // sort_key second: find() filters on the field and returns documents in id order.
        const path = `doc.${checkName('field', field)}`;
        await collection.createIndex({ [path]: 1, sort_key: 1 }, { name: path });
      }
    }
  }

  async get<Doc = Record<string, unknown>>(collection: string, id: string): Promise<StoredDocument<Doc> | null> {
    const record = await this.collection(collection).findOne({ _id: id }, { maxTimeMS: READ_MAX_TIME_MS });
    if (!record || record.doc === null) return null;
    return storedOf<Doc>(record);
  }

  async getMany<Doc = Record<string, unknown>>(collection: string, ids: readonly string[]): Promise<(StoredDocument<Doc> | null)[]> {
    const records = await this.collection(collection)
      .find({ _id: { $in: [...ids] }, doc: { $ne: null } }, { projection: { doc: 1, position: 1 }, maxTimeMS: READ_MAX_TIME_MS })
      .toArray();
    const found = new Map(records.map((record) => [record._id, storedOf<Doc>(record)]));
    return ids.map((id) => found.get(id) ?? null);
  }

  async find<Doc = Record<string, unknown>>(
    collection: string,
    where: Record<string, Scalar>,
  ): Promise<StoredDocument<Doc>[]> {
    const filter: Record<string, unknown> = { doc: { $ne: null } };
    for (const [field, value] of Object.entries(where)) filter[`doc.${checkName('field', field)}`] = value;
    const records = await readAgainIfSwapped(() => this.findAll(collection, filter as Filter<ReadModelRecord>));
    if (records.length > FIND_LIMIT) throw new TooManyDocuments(collection, where);
    return records.map((record) => storedOf<Doc>(record));
  }

  private findAll(collection: string, filter: Filter<ReadModelRecord>) {
    return this.collection(collection)
      .find(filter, {
        projection: { doc: 1, position: 1 },
        sort: { sort_key: 1, _id: 1 },
        // No hint: MongoDB refuses a query whose hint names an index that does not exist, and the
        // port lets a find filter on any field. Where ensureCollections made the index on the
        // first field and the sort, the planner picks it; elsewhere the limit bounds the sort.
        limit: FIND_LIMIT + 1,
        maxTimeMS: READ_MAX_TIME_MS,
      })
      .toArray();
  }

  async count(collection: string): Promise<number> {
    return this.collection(collection).countDocuments({ doc: { $ne: null } }, { maxTimeMS: READ_MAX_TIME_MS });
  }

  async write(writes: DocumentWrite[], checkpoint?: { projection: string; position: Position }): Promise<void> {
    await Promise.all([...latestPerDocument(writes)].map(([collection, latest]) => this.upsert(collection, latest)));
    if (checkpoint) await this.moveCheckpoint(checkpoint);
  }

  async checkpoint(projection: string): Promise<Position> {
    const record = await this.checkpoints().findOne({ _id: projection }, { maxTimeMS: READ_MAX_TIME_MS });
    return record?.position ?? START;
  }

  /**
   * The checkpoint stays, as in the embedded adapter: rebuilds reset it with resetCheckpoint.
   * drop rather than deleteMany: one step whatever the size, where deleting the documents of a
   * large aside one by one could outlast the socket timeout; the rebuild ensures the indexes again.
   */
  async dropCollection(collection: string): Promise<void> {
    await this.collection(collection).drop();
  }

  /**
   * renameCollection with dropTarget replaces the target in one step (replica sets; sharded
   * collections cannot be renamed), then the checkpoint follows.
   */
  async replaceCollection(target: string, source: string, checkpoint: { projection: string; position: Position }): Promise<void> {
    try {
      await this.collection(source).rename(this.collection(target).collectionName, { dropTarget: true });
    } catch (error) {
      // A retry after the rename succeeded but the checkpoint did not: the source is gone, the
      // target has its documents; only the checkpoint is left to move.
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
    }
    await this.moveCheckpoint(checkpoint);
  }

  async resetCheckpoint(projection: string): Promise<void> {
    await this.checkpoints().deleteOne({ _id: projection });
  }

  /** Nothing to release: openMongoStores closes the client the stores share. */
  async close(): Promise<void> {}

  /**
   * Each write an upsert guarded by its position. When another writer inserts the same new id at
   * the same moment, the loser fails with a duplicate key whatever its position: tried once more,
   * it now meets the stored record and replaces it when newer, or is stale.
   */
  private async upsert(collection: string, writes: DocumentWrite[]): Promise<void> {
    const records = this.collection(collection);
    const raced = await duplicateKeysOf(records.bulkWrite(writes.map(toUpsert), { ordered: false }));
    if (raced.length > 0) await skipStale(records.bulkWrite(raced.map((i) => toUpsert(writes[i]!)), { ordered: false }));
  }

  /** Forward only: a late or replayed write cannot take a checkpoint back. */
  private async moveCheckpoint(checkpoint: { projection: string; position: Position }): Promise<void> {
    const move = () =>
      this.checkpoints().updateOne({ _id: checkpoint.projection, ...olderThan(checkpoint.position) }, { $set: { position: checkpoint.position } }, { upsert: true });
    // As for documents: a duplicate key may be another process's first checkpoint, not a newer one.
    if ((await duplicateKeysOf(move())).length > 0) await skipStale(move());
  }

  private collection(name: string): Collection<ReadModelRecord> {
    return this.db.collection<ReadModelRecord>(`rm_${checkName('collection', name)}`);
  }

  private checkpoints(): Collection<CheckpointRecord> {
    return this.db.collection<CheckpointRecord>(CHECKPOINTS);
  }
}

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
function olderThan(position: Position) {
  return { $or: [{ position: { $lt: position } }, { position: { $exists: false } }] };
}

/**
 * Only the newest write per document goes to the server. An unordered bulk write may apply two
 * upserts of one new id concurrently, and the loser's duplicate-key error would hide a newer write.
 */
function latestPerDocument(writes: DocumentWrite[]): Map<string, DocumentWrite[]> {
  const latest = new Map<string, Map<string, DocumentWrite>>();
  for (const write of writes) {
    const byId = latest.get(write.collection) ?? new Map<string, DocumentWrite>();
    latest.set(write.collection, byId);
    const current = byId.get(write.id);
    if (!current || current.position < write.position) byId.set(write.id, write);
  }
  return new Map([...latest].map(([collection, byId]) => [collection, [...byId.values()]]));
}

function toUpsert(write: DocumentWrite): AnyBulkWriteOperation<ReadModelRecord> {
  return {
    updateOne: {
      filter: { _id: write.id, ...olderThan(write.position) },
      update: { $set: { doc: write.doc, position: write.position, sort_key: sortKey(write.id) } },
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
async function readAgainIfSwapped<T>(read: () => Promise<T>): Promise<T> {
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
async function skipStale(operation: Promise<unknown>): Promise<void> {
  await duplicateKeysOf(operation);
}

/** The operations (indexes into a bulk write; [0] for one) refused with a duplicate key; any other failure throws. */
async function duplicateKeysOf(operation: Promise<unknown>): Promise<number[]> {
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
