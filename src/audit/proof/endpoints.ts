import { z } from 'zod';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { HttpError } from '../../shared/http/envelope';
import { AuditDeps, auditor } from '../endpoints';
import { checkpointOf, consistencyProof, inclusionProof, NoProof } from './proofs';
import { AuditTree } from './tree-store';
import { auditKeysOf } from './published-keys';

/** A tree size in a query string: digits, read as a whole number of at least `min`. */
function sizeParameter(name: string, min: number, description: string) {
  const rule = `${name} must be a whole number of events, at least ${min}`;
  return z
    .string()
    .regex(/^[0-9]{1,15}$/, rule)
    .transform(Number)
    .pipe(z.int().min(min, rule))
    .meta({
      description,
      // A whole number to a client generated from the contract; a query string carries it as digits.
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.pattern;
        Object.assign(jsonSchema, { type: 'integer', minimum: min });
      },
    });
}

const noteDescription =
  'A C2SP signed note (c2sp.org/signed-note) over a tlog-checkpoint body: origin, tree size, base64 root, `time <ISO 8601>`, then one signature line per key';
const base64Hashes = (what: string) => z.array(z.string()).meta({ description: `${what}: SHA-256 hashes, base64` });

const keyOf = z.object({
  verifier_key: z
    .string()
    .meta({ description: 'The C2SP note verifier key: <origin>+<key hash>+<base64(0x01 ‖ Ed25519 public key)>' }),
  key_hash: z
    .string()
    .meta({ description: "The key hash, 8 hex digits: the first 4 bytes of a signature line's base64 name the key" }),
  public_key: z.string().meta({ description: 'The same key, PEM (SPKI)' }),
  current: z
    .boolean()
    .meta({ description: 'Whether it signs the checkpoints now; the others were rotated out and signed earlier ones' }),
});

const keySchema = z
  .object({
    algorithm: z.literal('Ed25519'),
    public_key: z
      .string()
      .meta({ description: 'The current public key, PEM (SPKI), that checkpoints and export heads verify with' }),
    verifier_key: z
      .string()
      .meta({ description: 'The current key as a C2SP note verifier key, for note.NewVerifier and the like' }),
    key_hash: z.string().meta({ description: 'The current key hash, 8 hex digits' }),
    keys: z
      .array(keyOf)
      .meta({ description: 'Every key the log has been signed with, oldest first, the current one last' }),
  })
  .meta({ id: 'AuditKey' });

const checkpointQuery = z.object({
  size: sizeParameter('size', 1, 'The tree size of an earlier checkpoint; omitted, the latest').optional(),
});

const proofQuery = z.object({
  event: z
    .string()
    .min(1, 'event is the id of an event, as the export gives it')
    .max(100, 'event is at most 100 characters')
    .meta({ description: "The event's id, as the export gives it" }),
  size: sizeParameter('size', 1, 'The tree size of the checkpoint to prove it in; omitted, the latest').optional(),
});

const proofSchema = z
  .object({
    leaf_index: z.int().min(0).meta({ description: "The event's place among the tree's leaves, from 0" }),
    leaf: z.string().meta({
      description:
        "The leaf's bytes, base64: the canonical JSON of the event's chained fields, id, position and digest; its hash is SHA-256(0x00 ‖ leaf)",
    }),
    audit_path: base64Hashes('The audit path of RFC 9162 2.1.3, from the leaf level up'),
    checkpoint: z.string().meta({ description: noteDescription }),
  })
  .meta({ id: 'AuditProof' });

const consistencyQuery = z.object({
  from: sizeParameter(
    'from',
    1,
    "The earlier tree size: a checkpoint's, or the number of events of an export from the start of the log",
  ),
  to: sizeParameter('to', 1, 'The tree size of the later checkpoint'),
});

const consistencySchema = z
  .object({
    proof: base64Hashes('The consistency proof of RFC 9162 2.1.4 (RFC 6962 2.1.2); empty when the sizes are equal'),
    from_checkpoint: z
      .string()
      .nullable()
      .meta({ description: `${noteDescription}; null when no checkpoint of that size was signed` }),
    to_checkpoint: z.string().meta({ description: noteDescription }),
  })
  .meta({ id: 'AuditConsistency' });

const STATUS: Record<NoProof['reason'], 404 | 422> = {
  no_checkpoint_yet: 404,
  checkpoint_not_found: 404,
  event_not_checkpointed: 404,
  sizes_out_of_order: 422,
};

const refused = (err: unknown): never => {
  if (err instanceof NoProof) throw new HttpError(STATUS[err.reason], err.reason, err.message);
  throw err;
};

const base64 = (hashes: Buffer[]): string[] => hashes.map((h) => h.toString('base64'));

/** What an auditor verifies with, in formats their own tools read: the keys, the signed checkpoints and the proofs. */
export function proofEndpoints(deps: AuditDeps): Endpoint[] {
  const tree = new AuditTree(deps.documents);
  return [
    endpoint({
      method: 'GET',
      path: '/audit/key',
      caller: auditor,
      summary: 'The keys that checkpoints and export heads are signed with: PEM and C2SP verifier keys',
      response: keySchema,
      handler: async () => ({ data: await auditKeysOf(deps.events, deps.auditKey) }),
    }),
    endpoint({
      method: 'GET',
      path: '/audit/checkpoint',
      caller: auditor,
      summary: 'The latest signed checkpoint, or the one of a tree size, as the C2SP signed note it is, byte for byte',
      query: checkpointQuery,
      response: z.string().meta({ description: noteDescription }),
      raw: 'text/plain',
      refusals: [
        {
          status: 404,
          reasons: ['no_checkpoint_yet', 'checkpoint_not_found'],
          when: 'no checkpoint yet (no_checkpoint_yet), or none of this size (checkpoint_not_found)',
        },
      ],
      handler: async (ctx, { query }) => {
        const checkpoint = await checkpointOf(tree, query.size).catch(refused);
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = checkpoint.note;
      },
    }),
    endpoint({
      method: 'GET',
      path: '/audit/proof',
      caller: auditor,
      summary:
        "The audit path from one event's leaf to a signed checkpoint, to prove that event without the whole export",
      query: proofQuery,
      response: proofSchema,
      refusals: [
        {
          status: 404,
          reasons: ['no_checkpoint_yet', 'checkpoint_not_found', 'event_not_checkpointed'],
          when: 'no checkpoint yet (no_checkpoint_yet), none of this size (checkpoint_not_found), or no event of this id in it (event_not_checkpointed)',
        },
      ],
      handler: async (_ctx, { query }) => {
        const proof = await inclusionProof(tree, deps.events, query.event, query.size).catch(refused);
        return {
          data: {
            leaf_index: proof.leaf_index,
            leaf: proof.leaf.toString('base64'),
            audit_path: base64(proof.audit_path),
            checkpoint: proof.checkpoint,
          },
        };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/audit/consistency',
      caller: auditor,
      summary:
        'The proof that an earlier signed checkpoint is a prefix of a later one: nothing signed was changed or taken out since',
      query: consistencyQuery,
      response: consistencySchema,
      refusals: [
        {
          status: 404,
          reasons: ['checkpoint_not_found'],
          when: 'no checkpoint of the size `to` was signed (checkpoint_not_found)',
        },
        { status: 422, reasons: ['sizes_out_of_order'], when: 'from is more than to (sizes_out_of_order)' },
      ],
      handler: async (_ctx, { query }) => {
        const proof = await consistencyProof(tree, query.from, query.to).catch(refused);
        return {
          data: {
            proof: base64(proof.proof),
            from_checkpoint: proof.from_checkpoint,
            to_checkpoint: proof.to_checkpoint,
          },
        };
      },
    }),
  ];
}
