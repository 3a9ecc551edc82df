import {
  CollectionSpec,
  DocumentStore,
  DocumentWrite,
  EventStore,
  Position,
  RecordedEvent,
  START,
} from '../../stores/ports';
import { ProjectionBatch } from './batch';
import { PoisonEvent } from './dead-letters';
import { Projection } from './projection';
import { StoredIds } from './stored-ids';

// Events read at a time: read, applied and dropped while still young, so that the garbage
// collector frees them cheaply and the heap does not grow.
const PAGE = 1000;
// Documents a rebuild keeps in memory per projection, stored when they fall out of use: memory is
// bounded by this, not by the length of the log, and a document changed by many events of a
// member's life is stored about once.
const KEEP = 2500;

/** The collection a projection is rebuilt into while its live collection keeps serving. */
export function asideOf(projection: Projection): CollectionSpec {
  return { ...projection.collection, name: `${projection.collection.name}__rebuild` };
}

/** A batch building `projection` in its aside collection; `emptied`: the aside was emptied for it. */
export function asideBatch(documents: DocumentStore, projection: Projection, emptied = false): ProjectionBatch {
  return new ProjectionBatch(
    documents,
    projection,
    asideOf(projection).name,
    KEEP,
    emptied ? new StoredIds() : undefined,
  );
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
 * storing the documents that leave the batches' memory as it goes and the rest at the end.
 * Rebuild writes carry no checkpoint and are scratch: a replay interrupted half-way is started
 * again, and the swap that puts it in place is the durable write.
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
  while (outcome.position < until && live.length > 0) {
    const page = (await events.readAll(outcome.position, PAGE)).filter((e) => e.position <= until);
    if (page.length === 0) break;
    for (const batch of live) await batch.load(page);
    live = applyPage(page, live, outcome);
    const leaving = live.flatMap((b) => b.evict());
    await storeScratch(documents, leaving);
    onProgress?.({ events: outcome.events, position: outcome.position, until });
  }
  const rest = live.flatMap((b) => b.pending());
  await storeScratch(documents, rest);
  for (const batch of live) batch.written();
  return outcome;
}

/** Applies a page to the live batches, and the batches still live after it: one that meets a poison event leaves. */
function applyPage(page: RecordedEvent[], batches: ProjectionBatch[], outcome: Replayed): ProjectionBatch[] {
  let live = batches;
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
  return live;
}

async function storeScratch(documents: DocumentStore, writes: DocumentWrite[]): Promise<void> {
  if (writes.length > 0) await documents.write(writes, undefined, true);
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
  // Indexed before the first write: SQLite's storing thread then maintains the indexes as it
  // stores, where building them after the last write held the main thread about a second.
  await documents.ensureCollections(asides);
  const batches = projections.map((p) => asideBatch(documents, p, true));
  const head = await events.headPosition();
  const built = await replay(events, documents, batches, START, head, onProgress);
  const poisoned = batches.filter((b) => built.poisoned.some((p) => p.projection === b.projection.name));
  for (const batch of poisoned) await documents.dropCollection(batch.collection);
  return built;
}
