import { z } from 'zod';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { HttpError } from '../../shared/http/envelope';
import { ActorNames, directoryOf } from '../actor-names';
import { AuditDeps, auditor } from '../endpoints';
import { auditEvent, storedMetadata } from '../event';
import { auditEventSchema } from '../schemas';
import { inclusionOf, NoInclusion } from './inclusion';

const keySchema = z
  .object({
    algorithm: z.literal('Ed25519'),
    public_key: z.string().meta({ description: 'The public key, PEM (SPKI), that checkpoints and export heads verify with' }),
  })
  .meta({ id: 'AuditKey' });

const proofQuery = z.object({
  event: z.string().min(1, 'event is the id of an event, as the export gives it').max(100, 'event is at most 100 characters').meta({ description: "The event's id, as the export gives it" }),
});

const proofSchema = z
  .object({
    event: auditEventSchema,
    leaf_index: z.int().min(0).meta({ description: "The event's place among the checkpoint's leaves, from 0" }),
    path: z.array(z.string()).meta({ description: 'Sibling hashes from the leaf up to the root, lowest first (RFC 9162, 2.1.3), hex' }),
    checkpoint: z.object({
      number: z.int().min(1),
      position: z.string(),
      count: z.int().min(1),
      root: z.string(),
      signed_at: z.iso.datetime(),
      signature: z.string(),
    }),
  })
  .meta({ id: 'AuditProof' });

const NOT_COVERED: Record<NoInclusion['reason'], string> = {
  no_checkpoint_yet: 'no checkpoint has been signed yet: one follows the first events within AUDIT_CHECKPOINT_SECONDS',
  event_not_checkpointed: 'no event has this id up to the latest checkpoint: check the id, or, for an event just recorded, ask again after the next checkpoint (within AUDIT_CHECKPOINT_SECONDS)',
};

/** What an auditor verifies with: the public key, and the proof that one event is in the log. */
export function proofEndpoints(deps: AuditDeps): Endpoint[] {
  return [
    endpoint({
      method: 'GET',
      path: '/audit/key',
      caller: auditor,
      summary: 'The public key that checkpoints and export heads are signed with',
      response: keySchema,
      handler: () => ({ data: { algorithm: 'Ed25519' as const, public_key: deps.auditKey.publicKeyPem } }),
    }),
    endpoint({
      method: 'GET',
      path: '/audit/proof',
      caller: auditor,
      summary: 'The Merkle path from one event to the latest signed checkpoint, to prove that event without the whole export',
      query: proofQuery,
      response: proofSchema,
      refusals: [{ status: 404, when: 'no checkpoint yet (no_checkpoint_yet), or no event of this id up to the latest one (event_not_checkpointed)' }],
      handler: async (_ctx, { query }) => {
        const proof = await inclusionOf(deps.events, query.event).catch((err: unknown) => {
          if (err instanceof NoInclusion) throw new HttpError(404, err.reason, NOT_COVERED[err.reason]);
          throw err;
        });
        const names = new ActorNames(directoryOf(deps.readModels));
        const event = auditEvent(proof.event, await names.of(storedMetadata(proof.event).actor), deps.describe);
        return { data: { event, leaf_index: proof.leaf_index, path: proof.path, checkpoint: proof.checkpoint } };
      },
    }),
  ];
}
