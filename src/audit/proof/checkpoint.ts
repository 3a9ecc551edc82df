import { z } from 'zod';

/** The stream of the signed checkpoints; the checkpointer is its one writer. */
export const CHECKPOINT_STREAM = 'audit-checkpoints';
/** Checkpoints before the C2SP formats: deployments have them in their logs, so they stay readable. */
export const LEGACY_CHECKPOINT_TYPE = 'AuditCheckpoint';
/** A checkpoint as a C2SP signed note over a tlog-checkpoint body (./note.ts, ./tree-head.ts). */
export const CHECKPOINT_TYPE = 'AuditCheckpointSigned';
/** The stream where a rotation of the signing key is recorded, by the command line. */
export const KEY_STREAM = 'audit-signing-keys';
export const KEY_ROTATED_TYPE = 'AuditSigningKeyRotated';

const hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A legacy checkpoint: the Merkle root of leaves over digests, signed over its canonical JSON. */
export const legacyCheckpointSchema = z.object({
  number: z.int().min(1),
  position: z.string(),
  count: z.int().min(1),
  root: hex,
  signed_at: z.iso.datetime(),
  signature: z.string(),
  frontier: z.array(hex),
});

export type LegacyCheckpoint = z.infer<typeof legacyCheckpointSchema>;

/** What a legacy checkpoint's signature covers; `kind` kept it from passing for an export's head. */
export const checkpointPayload = (
  c: Pick<LegacyCheckpoint, 'number' | 'position' | 'count' | 'root' | 'signed_at'>,
) => ({
  kind: 'checkpoint',
  number: c.number,
  position: c.position,
  count: c.count,
  root: c.root,
  signed_at: c.signed_at,
});

/** A signed checkpoint: what an auditor's own tools read is `note`, byte for byte as signed. */
export const checkpointSchema = z.object({
  /** The C2SP signed note: origin, size, base64 root, `time <ISO>`, a blank line, one line per signing key. */
  note: z.string().min(1),
  /** The tree size the note signs: every event of the log up to `position`. */
  size: z.int().min(1),
  /** The position of the last event covered. */
  position: z.string(),
  /** The roots of the tree's full subtrees, largest first, hex: MerkleFrontier.from(frontier, size) resumes it. */
  frontier: z.array(hex),
});

export type Checkpoint = z.infer<typeof checkpointSchema>;

/** A verifier key (`<name>+<hash8hex>+<base64(0x01 ‖ key)>`, ./note.ts). */
const verifierKey = z.string().min(1);

/** The signing key changed: the next checkpoint is signed by both, later ones by `next` alone. */
export const keyRotatedSchema = z.object({ previous: verifierKey, next: verifierKey });

export type KeyRotated = z.infer<typeof keyRotatedSchema>;

export const auditEventSchemas = {
  [CHECKPOINT_TYPE]: checkpointSchema,
  [LEGACY_CHECKPOINT_TYPE]: legacyCheckpointSchema,
  [KEY_ROTATED_TYPE]: keyRotatedSchema,
};
