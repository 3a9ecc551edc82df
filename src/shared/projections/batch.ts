import { DocumentStore, DocumentWrite, RecordedEvent, StoredDocument } from '../../stores/ports';
import { PoisonEvent } from './dead-letters';
import { documentsOf, evolveOrExplain, Projection } from './projection';

// Reads of documents in flight at once while loading: bounded, so that a long replay does not
// open a read per document of the whole batch in one go.
const LOAD_AT_ONCE = 32;

/**
 * Events applied to one projection's documents in memory, to be stored in one write: a batch of
 * events costs one transaction instead of one per event. The documents it holds are the state the
 * next event evolves from. `load` reads from the store the documents a run of events needs and
 * the batch does not hold yet; `apply` is then pure computation, with no wait per event.
 */
export class ProjectionBatch {
  private known = new Map<string, StoredDocument | null>();
  /** The previous generation of `known`: a document is dropped two writes after its last use. */
  private older = new Map<string, StoredDocument | null>();
  private changed = new Map<string, DocumentWrite>();

  constructor(
    private readonly documents: DocumentStore,
    readonly projection: Projection,
    /** Where the documents go: the live collection, or a rebuild's aside. */
    readonly collection: string,
    /** About how many documents to keep in memory across writes, sparing reads on a long replay; 0 keeps none. */
    private readonly keep = 0,
  ) {}

  /**
   * Reads the documents these events concern that the batch does not hold, up to LOAD_AT_ONCE
   * reads in flight: a run of events costs a few round trips, not one per document.
   */
  async load(events: RecordedEvent[]): Promise<void> {
    const missing = new Set<string>();
    for (const event of events) {
      let ids: string[];
      try {
        ids = documentsOf(this.projection, event);
      } catch {
        // `apply` reports it, in order, after the events before it.
        break;
      }
      for (const id of ids) {
        if (this.known.has(id)) continue;
        const older = this.older.get(id);
        if (older !== undefined) this.known.set(id, older);
        else missing.add(id);
      }
    }
    const ids = [...missing];
    for (let from = 0; from < ids.length; from += LOAD_AT_ONCE) {
      const chunk = ids.slice(from, from + LOAD_AT_ONCE);
      const loaded = await Promise.all(chunk.map((id) => this.documents.get(this.collection, id)));
      chunk.forEach((id, i) => this.known.set(id, loaded[i] ?? null));
    }
  }

  /**
   * Applies a loaded event to every document it concerns, or, when the projection cannot, throws
   * PoisonEvent and keeps nothing of it. Answers whether a document changed.
   */
  apply(event: RecordedEvent): boolean {
    let ids: string[];
    try {
      ids = documentsOf(this.projection, event);
    } catch (err) {
      throw this.poison(event, err);
    }
    // Most events concern few projections: those that ignore it should cost next to nothing.
    if (ids.length === 0) return false;
    const writes: DocumentWrite[] = [];
    for (const id of ids) {
      const stored = this.known.get(id);
      if (stored === undefined) throw new Error(`${this.projection.name}: document ${id} was not loaded before ${event.type} at ${event.position}`);
      // Already applied (a replay after a crash): evolving again could only fail or be thrown away.
      if (stored && stored.position >= event.position) continue;
      let doc: object | null;
      try {
        doc = evolveOrExplain(this.projection, stored?.doc ?? null, event);
      } catch (err) {
        throw this.poison(event, err);
      }
      // An event that leaves a missing document missing needs no tombstone.
      if (stored || doc) writes.push({ collection: this.collection, id, doc: doc as Record<string, unknown> | null, position: event.position });
    }
    for (const write of writes) {
      this.known.set(write.id, write.doc && { id: write.id, doc: write.doc, position: write.position });
      this.changed.set(write.id, write);
    }
    return writes.length > 0;
  }

  /** The latest write of each document changed since the last `written`. */
  pending(): DocumentWrite[] {
    return [...this.changed.values()];
  }

  /** The pending writes are stored. */
  written(): void {
    this.changed.clear();
    if (this.known.size <= this.keep) return;
    this.older = this.keep > 0 ? this.known : new Map();
    this.known = new Map();
  }

  private poison(event: RecordedEvent, err: unknown): PoisonEvent {
    return new PoisonEvent(this.projection.name, event, err instanceof Error ? err.message : String(err));
  }
}
