import { EventStore, RecordedEvent, START } from '../../stores/ports';
import { Checkpoint, CHECKPOINT_STREAM } from './checkpoint';
import { leafOf } from './leaf';
import { leafHash, treeRoot } from './merkle';
import { holdsInclusion, inclusionRanges } from './paths';

const BATCH = 1000;

/** The Merkle path from one event to the latest checkpoint: enough to prove that event alone. */
export interface Inclusion {
  event: RecordedEvent;
  /** The event's place among the leaves, from 0. */
  leaf_index: number;
  /** Sibling hashes, lowest first (RFC 9162, 2.1.3). */
  path: string[];
  checkpoint: Omit<Checkpoint, 'frontier'>;
}

/** Why there is no proof: no checkpoint yet, or no event of that id up to the latest one. */
export class NoInclusion extends Error {
  constructor(readonly reason: 'no_checkpoint_yet' | 'event_not_checkpointed') {
    super(reason);
  }
}

/**
 * Reads the log up to the latest checkpoint, hashing each event, and answers the path of the one
 * with this id. Costs one read of the log up to the checkpoint: a proof is asked for now and then,
 * and keeping the leaves would cost every append.
 */
export async function inclusionOf(events: EventStore, eventId: string): Promise<Inclusion> {
  const [last] = await events.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
  if (!last) throw new NoInclusion('no_checkpoint_yet');
  const { frontier: _frontier, ...checkpoint } = last.data as Checkpoint;
  const leaves: Buffer[] = [];
  let found: { event: RecordedEvent; index: number } | null = null;
  for (let from = START; leaves.length < checkpoint.count; ) {
    const batch = await events.readAll(from, Math.min(BATCH, checkpoint.count - leaves.length));
    if (batch.length === 0) break;
    for (const event of batch) {
      if (event.id === eventId) found = { event, index: leaves.length };
      leaves.push(leafOf(event));
    }
    from = batch.at(-1)!.position;
  }
  if (!found) throw new NoInclusion('event_not_checkpointed');
  return { event: found.event, leaf_index: found.index, path: inclusionRanges(found.index, leaves.length).map(([lo, hi]) => treeRoot(leaves.slice(lo, hi)).toString('hex')), checkpoint };
}

/** Whether the path leads from an event of this digest to the checkpoint's root. */
export function holdsProof(digest: string, proof: { leaf_index: number; path: string[]; checkpoint: { count: number; root: string } }): boolean {
  const path = proof.path.map((h) => Buffer.from(h, 'hex'));
  return holdsInclusion(proof.leaf_index, proof.checkpoint.count, leafHash(Buffer.from(digest, 'hex')), path, Buffer.from(proof.checkpoint.root, 'hex'));
}
