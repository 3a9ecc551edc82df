import { EventStore, DocumentStore, Position, Scalar } from '../../stores/ports';
import { Projection } from './projection';

/**
 * What a command just changed exists, in its read model once the read has waited for it or in the
 * state the decision left; anything else is a bug.
 */
export function expectWritten<Doc>(doc: Doc | null): Doc {
  if (!doc) throw new Error('the document a command just changed is missing');
  return doc;
}

export interface PositionTracker {
  /**
   * Resolves once the read models hold the event at `position`: every read model, or only the
   * named projection's, so that one projection halted on a poison event does not hold up reads
   * of the others.
   */
  waitFor(position: Position | null | undefined, timeoutMs: number, projection?: string): Promise<void>;
}

/** For a process that runs no projections and only reads the read models as they stand (the CLI). */
export const NOT_WAITING: PositionTracker = { waitFor: async () => {} };

/**
 * The query side, for every slice: each reads its own read models through these (see the slices'
 * reads.ts). A caller's own reads wait until the read model has caught up with its last write
 * (read-your-writes); the administrators' queues wait for the whole log as it was when the
 * request came in, so a review never misses an application that was already submitted.
 */
export class ReadModels {
  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly tracker: PositionTracker,
    /** This instance's in-memory key ring, which partner calls are checked against. */
    private readonly keyRing: PositionTracker,
    private readonly waitMs: number,
  ) {}

  /** Read-your-writes: only the read model about to be read, so that a halted or lagging other one holds nothing up. */
  private waitFor(position: Position | null | undefined, projection: string): Promise<void> {
    return this.tracker.waitFor(position, this.waitMs, projection);
  }

  /**
   * Waits, at most READ_WAIT_MS, until a key just issued works against this instance. It never
   * fails: the clear key exists only in the answer about to be given, so a key ring that lags or
   * cannot follow must not turn an appended claim or rotation into an error and lose the key.
   */
  async untilKeyWorks(position: Position): Promise<void> {
    await this.keyRing.waitFor(position, this.waitMs).catch(() => undefined);
  }

  /** Waits until the projection's read model holds every event committed before this call. */
  private async waitForHead(projection: string): Promise<void> {
    await this.waitFor(await this.events.headPosition(), projection);
  }

  /**
   * The document as of `after`, the caller's last write: waits for that read model alone
   * (read-your-writes). Behind is not absent: a document not found is answered missing only once
   * the read model holds every event committed before the call, and a read model that cannot get
   * there within READ_WAIT_MS (its projector lags or is down) refuses with ProjectionLag (503
   * read_model_lagging), rather than call missing what it may not have applied yet.
   */
  async after<Doc extends object>(
    projection: Projection<Doc>,
    id: string,
    after?: Position | null,
  ): Promise<Doc | null> {
    await this.waitFor(after, projection.name);
    const found = await this.now(projection, id);
    if (found) return found;
    await this.waitForHead(projection.name);
    return this.now(projection, id);
  }

  /** The document as it stands, without waiting. */
  async now<Doc extends object>(projection: Projection<Doc>, id: string): Promise<Doc | null> {
    return (await this.documents.get<Doc>(projection.collection.name, id))?.doc ?? null;
  }

  /** The documents with these ids, in their order (null for a missing one), as they stand, in one read. */
  async manyNow<Doc extends object>(projection: Projection<Doc>, ids: readonly string[]): Promise<(Doc | null)[]> {
    return (await this.documents.getMany<Doc>(projection.collection.name, ids)).map((d) => d?.doc ?? null);
  }

  /** The documents that match, as they stand, without waiting. */
  async allNow<Doc extends object>(projection: Projection<Doc>, where: Record<string, Scalar>): Promise<Doc[]> {
    return (await this.documents.find<Doc>(projection.collection.name, where)).map((d) => d.doc);
  }

  /** The document as of every event committed before this call. */
  async latest<Doc extends object>(projection: Projection<Doc>, id: string): Promise<Doc | null> {
    await this.waitForHead(projection.name);
    return this.now(projection, id);
  }

  /** The documents that match, as of every event committed before this call. */
  async allLatest<Doc extends object>(projection: Projection<Doc>, where: Record<string, Scalar>): Promise<Doc[]> {
    await this.waitForHead(projection.name);
    return this.allNow(projection, where);
  }
}
