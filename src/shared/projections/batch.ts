import { DocumentStore, DocumentWrite, Position, RecordedEvent, START, StoredDocument } from '../../stores/ports';
import { PoisonEvent } from './dead-letters';
import { evolveOrExplain, Projection } from './projection';
import { StoredIds } from './stored-ids';

// Documents read at once while loading: one read for many, bounded so that a long replay does not
// ask for every document of the whole batch in one go.
const LOAD_AT_ONCE = 100;
/** The documents of an event the projection does not handle: shared, so that it costs no allocation. */
const NONE: readonly string[] = [];

/**
 * A document as the batch holds it, changed in place by the events applied to it: a replay changes
 * about two documents per event, and a new object and a set entry for each change were a tenth of
 * a rebuild's time. Null content: missing, or deleted, when the tombstone keeps its position.
 */
interface Held {
  doc: object | null;
  position: Position;
  /** Changed since it was last handed out to be stored. */
  unstored: boolean;
}

const held = (found: StoredDocument | null): Held =>
  found
    ? { doc: found.doc, position: found.position, unstored: false }
    : { doc: null, position: START, unstored: false };

/**
 * Events applied to one projection's documents in memory, to be stored in one write: a batch of
 * events costs one transaction instead of one per event. The documents it holds are the state the
 * next event evolves from. `load` reads from the store the documents a run of events needs and
 * the batch does not hold yet; `apply` is then pure computation, with no wait per event.
 */
export class ProjectionBatch {
  private known = new Map<string, Held>();
  /** The previous generation of `known`: a document leaves memory when a generation ends without its use. */
  private older = new Map<string, Held>();
  private readonly handles: ReadonlySet<string>;
  /**
   * The events of the last `load` and the documents each concerns, so that `apply` need not ask
   * again; the arrays are reused from one load to the next, as a replay allocates enough per event.
   */
  private loaded: RecordedEvent[] = [];
  private readonly loadedIds: (readonly string[])[] = [];
  private loadedCount = 0;
  private applied = 0;
  /** An event's changes, set aside until every document it concerns is evolved; reused. */
  private readonly changing: Held[] = [];
  private readonly changingTo: (object | null)[] = [];

  constructor(
    private readonly documents: DocumentStore,
    readonly projection: Projection,
    /** Where the documents go: the live collection, or a rebuild's aside. */
    readonly collection: string,
    /** About how many documents to keep in memory across writes, sparing reads on a long replay; 0 keeps none. */
    private readonly keep = 0,
    /**
     * Given when the collection was empty as the batch began and nothing else writes it (a
     * rebuild's aside): every document the batch hands out to be stored is added, and one never
     * added is known to be missing without a read.
     */
    private readonly stored?: StoredIds,
  ) {
    this.handles = new Set(projection.handles);
  }

  /**
   * Reads the documents these events concern that the batch does not hold, LOAD_AT_ONCE in one
   * read: a run of events costs a few round trips, not one per document.
   */
  async load(events: RecordedEvent[]): Promise<void> {
    let missing: Set<string> | undefined;
    this.loaded = events;
    this.loadedCount = 0;
    this.applied = 0;
    for (const event of events) {
      let ids: readonly string[];
      try {
        ids = this.documentsOf(event);
      } catch {
        // `apply` reports it, in order, after the events before it.
        break;
      }
      this.loadedIds[this.loadedCount++] = ids;
      for (const id of ids) {
        if (this.known.has(id)) continue;
        const older = this.older.get(id);
        if (older !== undefined) this.known.set(id, older);
        else if (this.stored && !this.stored.mayHave(id)) this.known.set(id, held(null));
        else (missing ??= new Set()).add(id);
      }
    }
    if (!missing) return;
    const ids = [...missing];
    for (let from = 0; from < ids.length; from += LOAD_AT_ONCE) {
      const chunk = ids.slice(from, from + LOAD_AT_ONCE);
      const loaded = await this.documents.getMany(this.collection, chunk);
      chunk.forEach((id, i) => this.known.set(id, held(loaded[i] ?? null)));
    }
  }

  /**
   * Applies a loaded event to every document it concerns, or, when the projection cannot, throws
   * PoisonEvent and keeps nothing of it. Answers whether a document changed.
   */
  apply(event: RecordedEvent): boolean {
    const ids = this.loadedDocumentsOf(event);
    // Most events concern few projections: those that ignore it should cost next to nothing.
    if (ids.length === 0) return false;
    let changes = 0;
    for (const id of ids) {
      const document = this.known.get(id);
      if (document === undefined)
        throw new Error(
          `${this.projection.name}: document ${id} was not loaded before ${event.type} at ${event.position}`,
        );
      // Already applied (a replay after a crash): evolving again could only fail or be thrown away.
      if (document.doc && document.position >= event.position) continue;
      let doc: object | null;
      try {
        doc = evolveOrExplain(this.projection, document.doc, event);
      } catch (err) {
        throw this.poison(event, err);
      }
      // An event that leaves a missing document missing needs no tombstone.
      if (document.doc || doc) {
        this.changing[changes] = document;
        this.changingTo[changes++] = doc;
      }
    }
    for (let i = 0; i < changes; i++) {
      const document = this.changing[i]!;
      document.doc = this.changingTo[i]!;
      document.position = event.position;
      document.unstored = true;
    }
    return changes > 0;
  }

  /** The documents the event concerns, as `load` found them when the event is the next it loaded. */
  private loadedDocumentsOf(event: RecordedEvent): readonly string[] {
    const at = this.applied;
    if (this.loaded[at] === event && at < this.loadedCount) {
      this.applied++;
      return this.loadedIds[at]!;
    }
    try {
      return this.documentsOf(event);
    } catch (err) {
      throw this.poison(event, err);
    }
  }

  /** documentsOf (./projection.ts), with the handled types in a set and no allocation for the others. */
  private documentsOf(event: RecordedEvent): readonly string[] {
    return this.handles.has(event.type) ? this.projection.documentIds(event) : NONE;
  }

  /** The latest write of each document changed since the last `written`. */
  pending(): DocumentWrite[] {
    const writes: DocumentWrite[] = [];
    for (const [id, document] of this.known) if (document.unstored) writes.push(this.toWrite(id, document));
    for (const [id, document] of this.older)
      if (document.unstored && !this.known.has(id)) writes.push(this.toWrite(id, document));
    return writes;
  }

  /** The pending writes are stored. */
  written(): void {
    for (const document of this.known.values()) document.unstored = false;
    for (const document of this.older.values()) document.unstored = false;
    this.nextGeneration();
  }

  /**
   * When the batch holds more than it keeps, starts a new generation and answers the changes of
   * the documents that leave memory, to be stored before the next `load`; the others stay pending.
   * A document changed often is then stored once when it falls out of use, not at every write:
   * memory is bounded by the documents held, not by the events applied.
   */
  evict(): DocumentWrite[] {
    if (this.known.size <= this.keep) return [];
    const leaving: DocumentWrite[] = [];
    // With nothing kept, every document leaves (and `older` is empty); else those not used since.
    const candidates = this.keep > 0 ? this.older : this.known;
    const staying = this.keep > 0 ? this.known : undefined;
    for (const [id, document] of candidates) {
      if (!document.unstored || staying?.has(id)) continue;
      leaving.push(this.toWrite(id, document));
      document.unstored = false;
    }
    this.nextGeneration();
    return leaving;
  }

  private nextGeneration(): void {
    if (this.known.size <= this.keep) return;
    this.older = this.keep > 0 ? this.known : new Map();
    this.known = new Map();
  }

  private toWrite(id: string, { doc, position }: Held): DocumentWrite {
    this.stored?.add(id);
    return { collection: this.collection, id, doc: doc as Record<string, unknown> | null, position };
  }

  private poison(event: RecordedEvent, err: unknown): PoisonEvent {
    return new PoisonEvent(this.projection.name, event, err instanceof Error ? err.message : String(err));
  }
}
