import { EventStore } from '../../stores/ports';
import { leafBytes, leafFieldsOf } from './leaf';
import { consistencyRanges, inclusionRanges } from './paths';
import { AuditTree, CheckpointEntry } from './tree-store';
import { planOf } from './tree-tiles';

/** Why a proof cannot be given; each is a refusal of the endpoints. */
export class NoProof extends Error {
  constructor(
    readonly reason: 'no_checkpoint_yet' | 'checkpoint_not_found' | 'event_not_checkpointed' | 'sizes_out_of_order',
    message: string,
  ) {
    super(message);
  }
}

export interface InclusionProof {
  leaf_index: number;
  /** The leaf's bytes (./leaf.ts): its hash is SHA-256(0x00 ‖ leaf). */
  leaf: Buffer;
  /** RFC 9162 2.1.3, from the leaf's level up. */
  audit_path: Buffer[];
  checkpoint: string;
}

export interface ConsistencyProof {
  /** RFC 9162 2.1.4: empty when the sizes are equal. */
  proof: Buffer[];
  /** Null when no checkpoint of that size was signed: an auditor's export from the start is a tree of its own size. */
  from_checkpoint: string | null;
  to_checkpoint: string;
}

/** The signed checkpoint of this size, or the latest when none is given. */
export async function checkpointOf(tree: AuditTree, size?: number): Promise<CheckpointEntry> {
  const wanted = size ?? (await tree.head())?.checkpoint;
  if (wanted === undefined || wanted === null)
    throw new NoProof(
      'no_checkpoint_yet',
      'no checkpoint has been signed yet: one follows the first events within AUDIT_CHECKPOINT_SECONDS',
    );
  const checkpoint = await tree.checkpoint(wanted);
  if (!checkpoint)
    throw new NoProof(
      'checkpoint_not_found',
      `no checkpoint of ${wanted} events was signed: take a size from a checkpoint note (its second line), or omit it for the latest`,
    );
  return checkpoint;
}

/** The audit path from one event to the checkpoint of `size` events (the latest when omitted), with the leaf itself. */
export async function inclusionProof(
  tree: AuditTree,
  events: EventStore,
  eventId: string,
  size?: number,
): Promise<InclusionProof> {
  const checkpoint = await checkpointOf(tree, size);
  const leaf = await tree.leaf(eventId);
  if (!leaf || leaf.index >= checkpoint.size) {
    throw new NoProof(
      'event_not_checkpointed',
      `no event has this id among the ${checkpoint.size} events of the checkpoint: check the id, or, for an event just recorded, ask again after the next checkpoint (within AUDIT_CHECKPOINT_SECONDS)`,
    );
  }
  const [event] = await events.readAll(leaf.after, 1);
  if (event?.id !== eventId)
    throw new Error(
      `the audit tree places event ${eventId} after position ${leaf.after}, where the log has ${event?.id ?? 'nothing'}`,
    );
  const audit_path = await tree.hashes(inclusionRanges(leaf.index, checkpoint.size).map(planOf));
  return { leaf_index: leaf.index, leaf: leafBytes(leafFieldsOf(event)), audit_path, checkpoint: checkpoint.note };
}

/** The proof that the checkpoint of `from` events is a prefix of the one of `to` events. */
export async function consistencyProof(tree: AuditTree, from: number, to: number): Promise<ConsistencyProof> {
  if (from > to)
    throw new NoProof(
      'sizes_out_of_order',
      `from (${from}) is more than to (${to}): a tree is a prefix only of a tree at least as large`,
    );
  const second = await checkpointOf(tree, to);
  const first = await tree.checkpoint(from);
  const proof = await tree.hashes(consistencyRanges(from, to).map(planOf));
  return { proof, from_checkpoint: first?.note ?? null, to_checkpoint: second.note };
}
