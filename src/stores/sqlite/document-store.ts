import type { Statement, Transaction } from 'better-sqlite3';
import { START } from '../ports';
import type {
  CollectionSpec,
  DocumentStore,
  DocumentWrite,
  Position,
  Scalar,
  StoredDocument,
  StringRange,
} from '../ports';
import { checkName } from '../names';
import { BUSY_TIMEOUT_MS, type Database } from './database';
import { SqliteIdempotencyRecords } from './idempotency-records';
import { ScratchWriter } from './scratch-writer';
import { checkFence } from './leases';
import type { Fence } from '../lease-port';

/**
 * Ids are strings; digit-only ids sort by numeric value (as MongoDB sorts integer ids) before the
 * others, which sort as plain strings. Comparing length then digits, with leading zeros trimmed,
 * orders numbers of any size without converting them.
 */
const ID_ORDER = `
  id = '' OR id GLOB '*[^0-9]*',
  CASE WHEN id GLOB '*[^0-9]*' THEN 0 ELSE length(ltrim(id, '0')) END,
  CASE WHEN id GLOB '*[^0-9]*' THEN '' ELSE ltrim(id, '0') END,
  id`;
const ORDER_BY_ID = `ORDER BY ${ID_ORDER}`;

/**
 * One equality term per field. json_extract alone would conflate true with 1 and a JSON string
 * with an array's text, so the JSON type is checked beside the indexed expression. Null matches
 * a null or missing field, as in MongoDB.
 */
function condition(field: string, value: Scalar): { sql: string; params: (string | number)[] } {
  const path = `json_extract(doc, '$.${checkName('field', field)}')`;
  const type = `json_type(doc, '$.${field}')`;
  if (value === null) return { sql: `${path} IS NULL`, params: [] };
  if (typeof value === 'boolean') return { sql: `${path} = ? AND ${type} = '${value}'`, params: [value ? 1 : 0] };
  if (typeof value === 'number') return { sql: `${path} = ? AND ${type} IN ('integer', 'real')`, params: [value] };
  return { sql: `${path} = ? AND ${type} = 'text'`, params: [value] };
}

/**
 * When the scratch writes' connection copies the log into the database: about 40 MB of log at
 * SQLite's default page size, no more than a swap, which rewrites every document of a collection
 * in one commit, leaves in the log anyway. A rebuild's commits of about a thousand scattered
 * documents each dirty about as many pages, and at the default threshold (1,000 pages) nearly
 * every commit was followed by a checkpoint with its fsyncs, about a tenth of the writing time.
 */
const SCRATCH_CHECKPOINT_PAGES = 10_000;

type FoundRow = { id: string; doc: string; position: Position };

// A deletion stores a NULL doc: the tombstone keeps its position so a replayed write loses.
const UPSERT = `
  INSERT INTO documents (collection, id, doc, position) VALUES (?, ?, ?, ?)
  ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc, position = excluded.position
  WHERE excluded.position > documents.position`;

/** Collection and field names are plain identifiers, so the dot cannot be part of either. */
const indexName = (collection: string, field: string): string => `documents.${collection}.${field}`;

/** A stored row as the port answers it: its content parsed, a copy of the caller's own. */
const storedOf = <Doc>(id: string, row: { doc: string; position: Position }): StoredDocument<Doc> => ({
  id,
  doc: JSON.parse(row.doc) as Doc,
  position: row.position,
});

export class SqliteDocumentStore implements DocumentStore {
  private readonly getDocument: Statement<[string, string], { doc: string; position: Position }>;
  private readonly getDocuments: Statement<[string, string], { id: string; doc: string; position: Position }>;
  private readonly countDocuments: Statement<[string], { documents: number }>;
  private readonly getCheckpoints: Statement<[string], { projection: string; position: Position }>;
  private readonly deleteCheckpoint: Statement<[string]>;
  private readonly deleteCollection: Statement<[string]>;
  private readonly findStatements = new Map<string, Statement<(string | number)[], FoundRow>>();
  private readonly writeTransaction: Transaction<
    (writes: DocumentWrite[], checkpoint?: { projection: string; position: Position }) => void
  >;
  private readonly replaceTransaction: Transaction<
    (target: string, source: string, checkpoint: { projection: string; position: Position }) => void
  >;
  private readonly scratch: ScratchWriter;
  private readonly resetTransaction: Transaction<(projection: string) => void>;
  private fenced: Fence | null = null;
  readonly idempotency: SqliteIdempotencyRecords;

  /** The database belongs to the caller, who closes it after this store. */
  constructor(private readonly db: Database) {
    this.getDocument = db.prepare(
      'SELECT doc, position FROM documents WHERE collection = ? AND id = ? AND doc IS NOT NULL',
    );
    // The ids as one JSON array: one statement, whatever their number.
    this.getDocuments = db.prepare(
      'SELECT id, doc, position FROM documents WHERE collection = ? AND id IN (SELECT value FROM json_each(?)) AND doc IS NOT NULL',
    );
    this.countDocuments = db.prepare(
      'SELECT count(*) AS documents FROM documents WHERE collection = ? AND doc IS NOT NULL',
    );
    this.getCheckpoints = db.prepare(
      'SELECT projection, position FROM checkpoints WHERE projection IN (SELECT value FROM json_each(?))',
    );
    this.deleteCheckpoint = db.prepare('DELETE FROM checkpoints WHERE projection = ?');
    this.deleteCollection = db.prepare('DELETE FROM documents WHERE collection = ?');
    const upsert = db.prepare<[string, string, string | null, Position]>(UPSERT);
    const setCheckpoint = db.prepare<[string, Position]>(`
      INSERT INTO checkpoints (projection, position) VALUES (?, ?)
      ON CONFLICT (projection) DO UPDATE SET position = excluded.position
      WHERE excluded.position > checkpoints.position`);
    const check = checkFence(db);
    this.writeTransaction = db.transaction((writes, checkpoint) => {
      check(this.fenced);
      for (const { collection, id, doc, position } of writes) {
        upsert.run(collection, id, doc === null ? null : JSON.stringify(doc), position);
      }
      if (checkpoint) setCheckpoint.run(checkpoint.projection, checkpoint.position);
    });
    const moveCollection = db.prepare<[string, string]>('UPDATE documents SET collection = ? WHERE collection = ?');
    // One transaction: readers of the other connections see the old collection or the new one.
    this.replaceTransaction = db.transaction((target, source, checkpoint) => {
      check(this.fenced);
      this.deleteCollection.run(target);
      moveCollection.run(target, source);
      setCheckpoint.run(checkpoint.projection, checkpoint.position);
    });
    this.resetTransaction = db.transaction((projection) => {
      check(this.fenced);
      this.deleteCheckpoint.run(projection);
    });
    this.idempotency = new SqliteIdempotencyRecords(db);
    this.scratch = new ScratchWriter(db.name, {
      upsert: UPSERT,
      checkpointPages: SCRATCH_CHECKPOINT_PAGES,
      busyTimeoutMs: BUSY_TIMEOUT_MS,
    });
  }

  /**
   * One partial index per collection and field, so that a write pays only for the indexes of its
   * own collection. Indexes named after the field alone come from an earlier version, which
   * indexed every collection's documents under each field name: they go.
   */
  async ensureCollections(specs: CollectionSpec[]): Promise<void> {
    await this.scratch.drain();
    for (const spec of specs) {
      checkName('collection', spec.name);
      for (const field of spec.indexes) {
        checkName('field', field);
        this.db.exec(`DROP INDEX IF EXISTS documents_by_${field}`);
        this.db.exec(`CREATE INDEX IF NOT EXISTS "${indexName(spec.name, field)}"
          ON documents (json_extract(doc, '$.${field}')) WHERE collection = '${spec.name}'`);
      }
    }
  }

  async get<Doc = Record<string, unknown>>(collection: string, id: string): Promise<StoredDocument<Doc> | null> {
    const pending = this.scratch.pending<Doc>(collection, id);
    if (pending !== undefined) return pending;
    const row = this.getDocument.get(collection, id);
    return row ? storedOf<Doc>(id, row) : null;
  }

  async getMany<Doc = Record<string, unknown>>(
    collection: string,
    ids: readonly string[],
  ): Promise<(StoredDocument<Doc> | null)[]> {
    const found = new Map<string, StoredDocument<Doc> | null>();
    const unread: string[] = [];
    for (const id of ids) {
      const pending = this.scratch.pending<Doc>(collection, id);
      if (pending === undefined) unread.push(id);
      else found.set(id, pending);
    }
    if (unread.length > 0) {
      for (const row of this.getDocuments.all(collection, JSON.stringify(unread)))
        found.set(row.id, storedOf<Doc>(row.id, row));
    }
    return ids.map((id) => found.get(id) ?? null);
  }

  async find<Doc = Record<string, unknown>>(
    collection: string,
    where: Record<string, Scalar>,
  ): Promise<StoredDocument<Doc>[]> {
    if (this.scratch.busy()) await this.scratch.drain([collection]);
    const conditions = Object.entries(where).map(([field, value]) => condition(field, value));
    // The collection as a literal, not a parameter: only then can SQLite use its partial indexes.
    const sql = [
      `SELECT id, doc, position FROM documents WHERE collection = '${checkName('collection', collection)}' AND doc IS NOT NULL`,
      ...conditions.map((c) => `AND ${c.sql}`),
      ORDER_BY_ID,
    ].join(' ');
    const rows = this.findStatement(sql).all(...conditions.flatMap((c) => c.params));
    return rows.map((row) => storedOf<Doc>(row.id, row));
  }

  /** The range on the field's partial index (ensureCollections); SQLite compares text bytewise, as MongoDB does. */
  async findInRange<Doc = Record<string, unknown>>(
    collection: string,
    range: StringRange,
  ): Promise<StoredDocument<Doc>[]> {
    if (this.scratch.busy()) await this.scratch.drain([collection]);
    const path = `json_extract(doc, '$.${checkName('field', range.field)}')`;
    const sql = [
      `SELECT id, doc, position FROM documents WHERE collection = '${checkName('collection', collection)}' AND doc IS NOT NULL`,
      `AND json_type(doc, '$.${range.field}') = 'text' AND ${path} <= ?`,
      range.after === undefined ? '' : `AND ${path} > ?`,
      `ORDER BY ${path}, ${ID_ORDER}`,
    ].join(' ');
    const rows = this.findStatement(sql).all(range.upTo, ...(range.after === undefined ? [] : [range.after]));
    return rows.map((row) => storedOf<Doc>(row.id, row));
  }

  async count(collection: string): Promise<number> {
    if (this.scratch.busy()) await this.scratch.drain([collection]);
    return this.countDocuments.get(collection)?.documents ?? 0;
  }

  /**
   * Scratch writes go to the second thread (scratch-writer.ts), which stores them while the
   * rebuild goes on; a scratch write with a checkpoint is stored as any other.
   */
  async write(
    writes: DocumentWrite[],
    checkpoint?: { projection: string; position: Position },
    scratch = false,
  ): Promise<void> {
    if (scratch && !checkpoint) return this.scratch.write(writes);
    if (this.scratch.busy()) {
      // Every scratch write handed over before is stored first, whatever its collection: another
      // process that sees this write (the offer of a rebuild) must see the whole aside with it.
      await this.scratch.settled();
      await this.scratch.drain(writes.map((w) => w.collection));
    }
    this.writeTransaction.immediate(writes, checkpoint);
  }

  async checkpoint(projection: string): Promise<Position> {
    const [position] = await this.checkpoints([projection]);
    return position ?? START;
  }

  async checkpoints(projections: readonly string[]): Promise<Position[]> {
    const stored = new Map(
      this.getCheckpoints.all(JSON.stringify(projections)).map((row) => [row.projection, row.position]),
    );
    return projections.map((projection) => stored.get(projection) ?? START);
  }

  /**
   * Its indexes go too, so that one its collection spec no longer names does not outlive it;
   * whoever fills it again calls ensureCollections first, as a rebuild does.
   */
  async dropCollection(collection: string): Promise<void> {
    await this.scratch.drain();
    const prefix = indexName(checkName('collection', collection), '');
    const indexes = this.db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index'").all();
    for (const { name } of indexes) if (name.startsWith(prefix)) this.db.exec(`DROP INDEX "${name}"`);
    this.deleteCollection.run(collection);
  }

  async replaceCollection(
    target: string,
    source: string,
    checkpoint: { projection: string; position: Position },
  ): Promise<void> {
    await this.scratch.drain();
    this.replaceTransaction.immediate(checkName('collection', target), checkName('collection', source), checkpoint);
  }

  async resetCheckpoint(projection: string): Promise<void> {
    this.resetTransaction.immediate(projection);
  }

  /** Checked in each write's own transaction (./leases.ts), so no new term starts between the check and the write. */
  fence(fence: Fence | null): void {
    this.fenced = fence;
  }

  /** The SQL text depends only on the fields and the kinds of their values: few variants. */
  private findStatement(sql: string): Statement<(string | number)[], FoundRow> {
    let statement = this.findStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.findStatements.set(sql, statement);
    }
    return statement;
  }

  /** Stores what is on its way; the shared database is closed by whoever opened it. */
  async close(): Promise<void> {
    await this.scratch.close();
  }
}
