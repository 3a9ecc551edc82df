import { MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import {
  LeaseLost,
  START,
  type CollectionSpec,
  type Fence,
  type DocumentStore,
  type DocumentWrite,
  type Position,
  type Scalar,
  type StoredDocument,
  type StringRange,
} from '../ports';
import { checkName } from '../names';
import {
  duplicateKeysOf,
  guarded,
  latestPerDocument,
  notNewerThan,
  readAgainIfSwapped,
  skipStale,
  toUpsert,
  type ReadModelRecord,
} from './guarded-writes';
import { MongoIdempotencyRecords } from './idempotency-records';
import { unavailableOnOutage } from './outage';
import { checkFence } from './leases';
import { dropIfPresent, ID_ORDER, indexesOf, NAMESPACE_NOT_FOUND } from './indexes';

/** A record with content (not a tombstone) as the port answers it. */
const storedOf = <Doc>(record: Pick<ReadModelRecord, '_id' | 'doc' | 'position'>): StoredDocument<Doc> => ({
  id: record._id,
  doc: record.doc as Doc,
  position: record.position,
});

interface CheckpointRecord {
  _id: string;
  position: Position;
  /** The lease token of the last fenced move (DocumentStore.fence). */
  token?: number;
}

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
  constructor(collection: string, where: Record<string, unknown>) {
    super(`find in ${collection} where ${JSON.stringify(where)} matches more than ${FIND_LIMIT} documents`);
    this.name = 'TooManyDocuments';
  }
}
const CHECKPOINTS = 'checkpoints';

/**
 * Read models in MongoDB: one collection per read model, the document under `doc`, and the last
 * applied position beside it. Each write is an upsert guarded by that position, so replaying an
 * event is a no-op; MongoDB does not make the batch atomic, the guard makes retrying it harmless.
 * Every failure to reach MongoDB is answered as StoreUnavailable (./outage.ts).
 */
export class MongoDocumentStore implements DocumentStore {
  readonly idempotency: MongoIdempotencyRecords;
  private fenced: Fence | null = null;

  constructor(
    private readonly db: Db,
    /** Where indexes are built: a client without the socket timeout, which a long build would outlast. */
    private readonly indexDb: Db = db,
  ) {
    this.idempotency = new MongoIdempotencyRecords(db);
  }

  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    await unavailableOnOutage('index build', async () => {
      for (const spec of specs) {
        const collection = this.indexDb.collection(this.collectionName(spec.name));
        for (const { name, key } of indexesOf(spec)) await collection.createIndex(key, { name });
        for (const field of spec.indexes) await dropIfPresent(collection, `doc.${field}`);
      }
    });
  }

  async get<Doc = Record<string, unknown>>(collection: string, id: string): Promise<StoredDocument<Doc> | null> {
    const record = await unavailableOnOutage('read', () =>
      this.collection(collection).findOne({ _id: id }, { maxTimeMS: READ_MAX_TIME_MS }),
    );
    if (!record || record.doc === null) return null;
    return storedOf<Doc>(record);
  }

  async getMany<Doc = Record<string, unknown>>(
    collection: string,
    ids: readonly string[],
  ): Promise<(StoredDocument<Doc> | null)[]> {
    const records = await unavailableOnOutage('read', () =>
      this.collection(collection)
        .find(
          { _id: { $in: [...ids] }, doc: { $ne: null } },
          { projection: { doc: 1, position: 1 }, maxTimeMS: READ_MAX_TIME_MS },
        )
        .toArray(),
    );
    const found = new Map(records.map((record) => [record._id, storedOf<Doc>(record)]));
    return ids.map((id) => found.get(id) ?? null);
  }

  async find<Doc = Record<string, unknown>>(
    collection: string,
    where: Record<string, Scalar>,
  ): Promise<StoredDocument<Doc>[]> {
    const filter: Record<string, unknown> = { doc: { $ne: null } };
    for (const [field, value] of Object.entries(where)) filter[`doc.${checkName('field', field)}`] = value;
    // No hint: MongoDB refuses a query whose hint names an index that does not exist, and the port
    // lets a find filter on any field. Where ensureCollections made the field's index, it is the
    // only one whose prefix matches the filter and it yields id order: the planner picks it.
    return this.findAll(collection, filter as Filter<ReadModelRecord>, ID_ORDER, where);
  }

  async findInRange<Doc = Record<string, unknown>>(
    collection: string,
    range: StringRange,
  ): Promise<StoredDocument<Doc>[]> {
    const path = `doc.${checkName('field', range.field)}`;
    const bounds: Record<string, unknown> = { $type: 'string', $lte: range.upTo };
    if (range.after !== undefined) bounds.$gt = range.after;
    const filter = { doc: { $ne: null }, [path]: bounds } as Filter<ReadModelRecord>;
    return this.findAll(collection, filter, { [path]: 1, ...ID_ORDER }, range);
  }

  private async findAll<Doc>(
    collection: string,
    filter: Filter<ReadModelRecord>,
    sort: Record<string, 1>,
    asked: object,
  ): Promise<StoredDocument<Doc>[]> {
    const read = () =>
      this.collection(collection)
        .find(filter, { projection: { doc: 1, position: 1 }, sort, limit: FIND_LIMIT + 1, maxTimeMS: READ_MAX_TIME_MS })
        .toArray();
    const records = await unavailableOnOutage('find', () => readAgainIfSwapped(read));
    if (records.length > FIND_LIMIT) throw new TooManyDocuments(collection, asked as Record<string, unknown>);
    return records.map((record) => storedOf<Doc>(record));
  }

  async count(collection: string): Promise<number> {
    return unavailableOnOutage('count', () =>
      this.collection(collection).countDocuments({ doc: { $ne: null } }, { maxTimeMS: READ_MAX_TIME_MS }),
    );
  }

  async write(writes: DocumentWrite[], checkpoint?: { projection: string; position: Position }): Promise<void> {
    await unavailableOnOutage('write', async () => {
      await checkFence(this.db, this.fenced);
      await Promise.all([...latestPerDocument(writes)].map(([collection, latest]) => this.upsert(collection, latest)));
      if (checkpoint) await this.moveCheckpoint(checkpoint);
    });
  }

  async checkpoint(projection: string): Promise<Position> {
    const [position] = await this.checkpoints([projection]);
    return position ?? START;
  }

  async checkpoints(projections: readonly string[]): Promise<Position[]> {
    const records = await unavailableOnOutage('checkpoint read', () =>
      this.checkpointCollection()
        .find({ _id: { $in: [...projections] } }, { maxTimeMS: READ_MAX_TIME_MS })
        .toArray(),
    );
    const stored = new Map(records.map((record) => [record._id, record.position]));
    return projections.map((projection) => stored.get(projection) ?? START);
  }

  /**
   * The checkpoint stays, as in the embedded adapter: rebuilds reset it with resetCheckpoint.
   * drop rather than deleteMany: one step whatever the size, where deleting the documents of a
   * large aside one by one could outlast the socket timeout; the rebuild ensures the indexes again.
   */
  async dropCollection(collection: string): Promise<void> {
    await unavailableOnOutage('drop', () => this.collection(collection).drop());
  }

  /**
   * renameCollection with dropTarget replaces the target in one step (replica sets; sharded
   * collections cannot be renamed), then the checkpoint follows.
   */
  async replaceCollection(
    target: string,
    source: string,
    checkpoint: { projection: string; position: Position },
  ): Promise<void> {
    await unavailableOnOutage('swap', async () => {
      await checkFence(this.db, this.fenced);
      try {
        await this.collection(source).rename(this.collectionName(target), { dropTarget: true });
      } catch (error) {
        // A retry after the rename succeeded but the checkpoint did not: the source is gone, the
        // target has its documents; only the checkpoint is left to move.
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
      }
      await this.moveCheckpoint(checkpoint);
    });
  }

  async resetCheckpoint(projection: string): Promise<void> {
    const fence = this.fenced;
    await unavailableOnOutage('checkpoint reset', async () => {
      await checkFence(this.db, fence);
      const filter = fence ? { _id: projection, ...notNewerThan(fence.token) } : { _id: projection };
      await this.checkpointCollection().deleteOne(filter);
    });
  }

  /** Checked by a read of the lease before each write, and by a token kept on each record it writes (./leases.ts). */
  fence(fence: Fence | null): void {
    this.fenced = fence;
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
    const fence = this.fenced;
    const raced = await duplicateKeysOf(
      records.bulkWrite(
        writes.map((write) => toUpsert(write, fence)),
        { ordered: false },
      ),
    );
    if (raced.length > 0)
      await skipStale(
        records.bulkWrite(
          raced.map((i) => toUpsert(writes[i]!, fence)),
          { ordered: false },
        ),
      );
  }

  /**
   * Forward only: a late or replayed write cannot take a checkpoint back. Fenced, a checkpoint a
   * later term of the lease moved is not taken by this write either, which then fails LeaseLost.
   */
  private async moveCheckpoint(checkpoint: { projection: string; position: Position }): Promise<void> {
    const fence = this.fenced;
    const move = () =>
      this.checkpointCollection().updateOne(
        guarded(checkpoint.projection, checkpoint.position, fence),
        { $set: fence ? { position: checkpoint.position, token: fence.token } : { position: checkpoint.position } },
        { upsert: true },
      );
    // As for documents: a duplicate key may be another process's first checkpoint, not a newer one.
    if ((await duplicateKeysOf(move())).length === 0) return;
    if ((await duplicateKeysOf(move())).length === 0 || !fence) return;
    const stored = await this.checkpointCollection().findOne({ _id: checkpoint.projection });
    if (stored?.token !== undefined && stored.token > fence.token) throw new LeaseLost(fence, stored.token);
  }

  private collectionName(name: string): string {
    return `rm_${checkName('collection', name)}`;
  }

  private collection(name: string): Collection<ReadModelRecord> {
    return this.db.collection<ReadModelRecord>(this.collectionName(name));
  }

  private checkpointCollection(): Collection<CheckpointRecord> {
    return this.db.collection<CheckpointRecord>(CHECKPOINTS);
  }
}
