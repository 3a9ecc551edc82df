import { DocumentStore, Position } from '../../stores/ports';
import { ProjectionBatch } from './batch';
import { DeadLetter, PoisonEvent } from './dead-letters';
import { Projection } from './projection';

/** One projection as the runner follows the log for it. */
export interface Follower {
  projection: Projection;
  batch: ProjectionBatch;
  /** The last event applied or skipped, stored or not yet. */
  checkpoint: Position;
  /** The checkpoint as of the last flush. */
  flushed: Position;
  /** The event it could not apply: it applies nothing more until a restart or a swapped-in rebuild. */
  halted: PoisonEvent | null;
  /** Its unresolved dead letters by position: applying that event after all resolves one. */
  deadLetters: Map<Position, DeadLetter>;
}

/** A follower of the projection from `checkpoint` on, with an empty batch and no dead letters yet. */
export function follow(documents: DocumentStore, projection: Projection, checkpoint: Position): Follower {
  const batch = new ProjectionBatch(documents, projection, projection.collection.name);
  return { projection, batch, checkpoint, flushed: checkpoint, halted: null, deadLetters: new Map() };
}

/** The poison event that keeps `position` out of reach: of any follower, or of the named projection's. */
export function haltedBy(
  followers: Map<string, Follower>,
  position: Position,
  projection?: string,
): PoisonEvent | null {
  for (const [name, { halted }] of followers) {
    if (projection !== undefined && name !== projection) continue;
    if (halted && halted.event.position <= position) return halted;
  }
  return null;
}
