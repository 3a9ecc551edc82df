import { CollectionSpec, DocumentStore, EventStore, Position, START } from '../../stores/ports';
import { ProjectionBatch } from './batch';
import { PoisonEvent } from './dead-letters';
import { Projection } from './projection';

// Events read at a time: read, applied and dropped while still young, so that the garbage
// collector frees them cheaply and the heap does not grow.
const PAGE = 1000;
// Events whose documents are stored in one write: a transaction's fixed cost vanishes, and a
// document changed by several of them is written once.
const WRITE_EVERY = 10_000;
// Documents a rebuild keeps in memory across writes, per projection: recent documents are the
// likely next ones, and the bound keeps memory flat.
const KEEP = 2000;

/** The collection a projection is rebuilt into while its live collection keeps serving. */
export function asideOf(projection: Projection): CollectionSpec {
  return { ...projection.collection, name: `${projection.collection.name}__rebuild` };
}

export interface ReplayProgress {
  /** Events read so far. */
  events: number;
  position: Position;
  /** Where this replay stops. */
  until: Position;
}

export interface Replayed {
  /** The last event applied: the checkpoint of what was built. */
  position: Position;
  events: number;
  /** One per projection that met an event it cannot apply; it was dropped from the replay there. */
  poisoned: PoisonEvent[];
}

/**
 * Applies the events after `from`, up to and including `until`, to the batches, a page at a time,
 * and stores what changed every WRITE_EVERY events, so memory does not grow with the log.
 * Rebuild writes carry no checkpoint: a replay interrupted half-way is started again.
 */
export async function replay(
  events: EventStore,
  documents: DocumentStore,
  batches: ProjectionBatch[],
  from: Position,
  until: Position,
  onProgress?: (progress: ReplayProgress) => void,
): Promise<Replayed> {
  const outcome: Replayed = { position: from, events: 0, poisoned: [] };
  let live = batches;
  let unwritten = 0;
  const write = async () => {
    const writes = live.flatMap((b) => b.pending());
    if (writes.length > 0) await documents.write(writes);
    for (const batch of live) batch.written();
    unwritten = 0;
    onProgress?.({ events: outcome.events, position: outcome.position, until });
  };
  while (outcome.position < until && live.length > 0) {
    const page = (await events.readAll(outcome.position, PAGE)).filter((e) => e.position <= until);
    if (page.length === 0) break;
    for (const batch of live) await batch.load(page);
    for (const event of page) {
      for (const batch of live) {
        try {
          batch.apply(event);
        } catch (err) {
          if (!(err instanceof PoisonEvent)) throw err;
          outcome.poisoned.push(err);
          live = live.filter((b) => b !== batch);
        }
      }
      outcome.position = event.position;
      outcome.events += 1;
    }
    unwritten += page.length;
    if (unwritten >= WRITE_EVERY) await write();
  }
  await write();
  return outcome;
}

/**
 * Builds each projection from the whole log into its aside collection (emptied first), in one
 * pass over the log for all of them, up to the head as it was when the rebuild began. The live
 * collections are not touched: swapIn (src/shared/projections/swap.ts) puts a rebuild in their place.
 */
export async function rebuildAside(
  events: EventStore,
  documents: DocumentStore,
  projections: Projection[],
  onProgress?: (progress: ReplayProgress) => void,
): Promise<Replayed> {
  const asides = projections.map(asideOf);
  for (const aside of asides) await documents.dropCollection(aside.name);
  const batches = projections.map((p, i) => new ProjectionBatch(documents, p, asides[i]!.name, KEEP));
  const head = await events.headPosition();
  const built = await replay(events, documents, batches, START, head, onProgress);
  await documents.ensureCollections(asides);
  const poisoned = batches.filter((b) => built.poisoned.some((p) => p.projection === b.projection.name));
  for (const batch of poisoned) await documents.dropCollection(batch.collection);
  return built;
}
