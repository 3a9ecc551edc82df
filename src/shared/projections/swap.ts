import { CollectionSpec, DocumentStore, EventStore, Position } from '../../stores/ports';
import { openDeadLetters, resolveDeadLetters } from './dead-letters';
import { Projection } from './projection';
import { asideBatch, asideOf, replay } from './rebuild';
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
  /**
   * Written just before the live collection is replaced: where the rebuild was caught up to and
   * how many documents it held, so that a swap interrupted after the replacement is finished on
   * retry rather than done again over an emptied side collection.
   */
  swapping?: { position: Position; documents: number };
}

export async function offerRebuild(
  documents: DocumentStore,
  projection: Projection,
  position: Position,
  now = new Date(),
): Promise<void> {
  const offer: RebuildOffer = {
    projection: projection.name,
    version: projection.version,
    position,
    built_at: now.toISOString(),
  };
  await documents.write([
    { collection: REBUILD_OFFERS.name, id: projection.name, doc: { ...offer }, position: stamp(now) },
  ]);
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
 *
 * With the offer it swaps, it is safe to run again after failing at any step: the offer is marked
 * before the replacement, and a marked offer whose side collection is now empty although it held
 * documents was swapped in already: only the steps after the replacement are done again.
 */
export async function swapIn(
  events: EventStore,
  documents: DocumentStore,
  projection: Projection,
  built: Position,
  reached: Position,
  offer?: RebuildOffer,
): Promise<Position> {
  const aside = asideOf(projection).name;
  const marked = offer?.swapping;
  if (marked && marked.documents > 0 && (await documents.count(aside)) === 0) {
    return finishSwap(documents, projection, marked.position > reached ? marked.position : reached);
  }
  let position = marked?.position ?? built;
  if (position < reached) {
    const caughtUp = await replay(events, documents, [asideBatch(documents, projection)], position, reached);
    if (caughtUp.poisoned[0]) throw caughtUp.poisoned[0];
    position = reached;
  }
  if (offer) await markSwapping(documents, offer, { position, documents: await documents.count(aside) });
  await documents.replaceCollection(projection.collection.name, aside, { projection: projection.name, position });
  return finishSwap(documents, projection, position);
}

async function markSwapping(
  documents: DocumentStore,
  offer: RebuildOffer,
  swapping: RebuildOffer['swapping'],
): Promise<void> {
  await documents.write([
    { collection: REBUILD_OFFERS.name, id: offer.projection, doc: { ...offer, swapping }, position: stamp() },
  ]);
}

/** What follows the replacement: the version record and the dead letters the rebuild got past. */
async function finishSwap(documents: DocumentStore, projection: Projection, position: Position): Promise<Position> {
  await recordVersion(documents, projection);
  const passed = (await openDeadLetters(documents, projection.name)).filter((l) => l.position <= position);
  await resolveDeadLetters(documents, passed);
  return position;
}
