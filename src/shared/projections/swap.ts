import { CollectionSpec, DocumentStore, EventStore, Position } from '../../stores/ports';
import { ProjectionBatch } from './batch';
import { openDeadLetters, resolveDeadLetters } from './dead-letters';
import { Projection } from './projection';
import { asideOf, replay } from './rebuild';
import { stamp } from './stamp';
import { recordVersion } from './versions';

/**
 * Rebuilds waiting to be swapped in. `platform projections rebuild` builds aside and offers the
 * result here; the projection runner, the one writer of the live collections, swaps it in. That
 * keeps a single writer per read model, which the position guard needs: two writers that each
 * read, evolve and write a document could each lose the other's event.
 */
export const REBUILD_OFFERS: CollectionSpec = { name: 'projection_rebuilds', indexes: [] };

export interface RebuildOffer {
  projection: string;
  /** The projection version that built it: a runner of another version leaves it alone. */
  version: number;
  /** The last event the rebuild applied. */
  position: Position;
  built_at: string;
}

export async function offerRebuild(documents: DocumentStore, projection: Projection, position: Position, now = new Date()): Promise<void> {
  const offer: RebuildOffer = { projection: projection.name, version: projection.version, position, built_at: now.toISOString() };
  await documents.write([{ collection: REBUILD_OFFERS.name, id: projection.name, doc: { ...offer }, position: stamp(now) }]);
}

export async function rebuildOffers(documents: DocumentStore): Promise<RebuildOffer[]> {
  return (await documents.find<RebuildOffer>(REBUILD_OFFERS.name, {})).map((d) => d.doc);
}

export async function withdrawOffer(documents: DocumentStore, projection: string): Promise<void> {
  await documents.write([{ collection: REBUILD_OFFERS.name, id: projection, doc: null, position: stamp() }]);
}

/**
 * Puts the rebuild of `projection`, built up to `built`, in place of its live collection: first
 * it catches the rebuild up with `reached`, what the live read model already holds, so the swap
 * never takes a reader or the checkpoint back; then it records the version and resolves the dead
 * letters the rebuild got past. Only the projection's runner may call this: nothing else writes
 * the live collection meanwhile. Throws PoisonEvent, swapping nothing, when the catch-up meets an
 * event the projection cannot apply. Answers the live checkpoint after the swap.
 */
export async function swapIn(
  events: EventStore,
  documents: DocumentStore,
  projection: Projection,
  built: Position,
  reached: Position,
): Promise<Position> {
  const aside = asideOf(projection).name;
  let position = built;
  if (built < reached) {
    const caughtUp = await replay(events, documents, [new ProjectionBatch(documents, projection, aside)], built, reached);
    if (caughtUp.poisoned[0]) throw caughtUp.poisoned[0];
    position = reached;
  }
  await documents.replaceCollection(projection.collection.name, aside, { projection: projection.name, position });
  await recordVersion(documents, projection);
  const passed = (await openDeadLetters(documents, projection.name)).filter((l) => l.position <= position);
  await resolveDeadLetters(documents, passed);
  return position;
}
