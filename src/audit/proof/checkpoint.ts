import { z } from 'zod';

/** The stream of the signed checkpoints; the checkpointer is its one writer. */
export const CHECKPOINT_STREAM = 'audit-checkpoints';
export const CHECKPOINT_TYPE = 'AuditCheckpoint';

const hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A checkpoint: the Merkle root over every event of the log up to `position`, signed. */
export const checkpointSchema = z.object({
  /** 1 for the first checkpoint, then one more each. */
  number: z.int().min(1),
  /** The position of the last event covered. */
  position: z.string(),
  /** How many events the log held up to it, this one's own predecessors included. */
  count: z.int().min(1),
  root: hex,
  signed_at: z.iso.datetime(),
  signature: z.string(),
  /** The roots of the tree's full subtrees, so that the next checkpoint resumes without rereading the log. */
  frontier: z.array(hex),
});

export type Checkpoint = z.infer<typeof checkpointSchema>;

export const auditEventSchemas = { [CHECKPOINT_TYPE]: checkpointSchema };

/** What a checkpoint's signature covers; `kind` keeps it from passing for an export's head. */
export const checkpointPayload = (c: Pick<Checkpoint, 'number' | 'position' | 'count' | 'root' | 'signed_at'>) => ({
  kind: 'checkpoint',
  number: c.number,
  position: c.position,
  count: c.count,
  root: c.root,
  signed_at: c.signed_at,
});
