import { DocumentStore, Position, RecordedEvent } from '../../stores/ports';
import { ProjectionBatch } from './batch';
import { DeadLetter, PoisonEvent } from './dead-letters';
import { PendingCheckpoints } from './pending-checkpoints';
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

/** A fresh follower from `position` on (a rebuild was swapped in there), keeping the dead letters past it. */
export function followOn(documents: DocumentStore, projection: Projection, position: Position, previous: Follower) {
  const follower = follow(documents, projection, position);
  for (const [at, letter] of previous.deadLetters) if (at > position) follower.deadLetters.set(at, letter);
  return follower;
}

/**
 * Applies the event to the follower's batch and moves its checkpoint past it. Answers the poison
 * when the projection cannot apply it (the checkpoint stays), else the dead letter it resolves, if any.
 */
export async function applyEvent(follower: Follower, event: RecordedEvent): Promise<PoisonEvent | DeadLetter | null> {
  try {
    await follower.batch.load([event]);
    follower.batch.apply(event);
  } catch (err) {
    if (!(err instanceof PoisonEvent)) throw err;
    return err;
  }
  follower.checkpoint = event.position;
  const letter = follower.deadLetters.get(event.position);
  if (!letter) return null;
  follower.deadLetters.delete(event.position);
  return letter;
}

/**
 * Writes the follower's batch with its checkpoint, in one write; a follower that applied nothing
 * to write leaves its new checkpoint to `pending`, stored on its own a while later.
 */
export async function flushFollower(documents: DocumentStore, follower: Follower, pending: PendingCheckpoints) {
  const { name } = follower.projection;
  const writes = follower.batch.pending();
  if (writes.length > 0) {
    await documents.write(writes, { projection: name, position: follower.checkpoint });
    follower.batch.written();
    pending.delete(name);
  } else if (follower.checkpoint > follower.flushed) {
    pending.set(name, follower.checkpoint);
  }
  follower.flushed = follower.checkpoint;
}
