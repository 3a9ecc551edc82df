import { z } from 'zod';
import { eventMetadataSchema } from '../shared/domain/events';

// One event as auditors read it (docs/audit.md), in a file of its own: the verifier of an export
// (./proof/export-line.ts) checks each line against it without the history's credential schemas.

const actorSchema = z
  .object({
    kind: eventMetadataSchema.shape.actor.shape.kind,
    id: z
      .union([z.int(), z.string()])
      .nullable()
      .meta({ description: 'Member or administrator id; the operating-system user for cli' }),
    username: z
      .string()
      .nullable()
      .meta({ description: "The member's or administrator's username; null for system and cli" }),
  })
  .meta({ id: 'Actor' });

export const auditEventSchema = z
  .object({
    position: z.string().meta({ description: 'Opaque position in the global log' }),
    stream: z.string(),
    revision: z.int().min(0),
    type: z.string(),
    time: z.iso.datetime().nullable().meta({
      description:
        'When it was recorded; null only for a stored event whose metadata has no readable time (it is invalid)',
    }),
    actor: actorSchema.nullable().meta({
      description: 'Who did it; null only for a stored event whose metadata names no readable actor (it is invalid)',
    }),
    summary: z.string().meta({
      description:
        'What happened, in words, with the details that tell one decision from another (API id, expiry, grace period)',
    }),
    reason: z.string().optional().meta({ description: "The administrator's reason, or the reason the event carries" }),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The event data without key digests, password hashes or other secrets' }),
    invalid: z
      .string()
      .optional()
      .meta({ description: 'Why this stored event does not fit its schema; it is shown as stored' }),
    id: z.string().optional().meta({ description: "The event's id, for GET /audit/proof" }),
    schema_version: z.int().min(1).meta({ description: 'The version of the data shape the event was written in' }),
    request_id: z.string().nullable().meta({ description: 'The request that decided it' }),
    secrets: z
      .string()
      .optional()
      .meta({ description: 'SHA-256 of the whole stored data, when secret fields were removed from data' }),
    recorded_data: z
      .unknown()
      .optional()
      .meta({ description: 'The data as written (secrets removed), when it was upcast since: what the digest covers' }),
    digest: z.string().optional().meta({
      description:
        "SHA-256 of the event's canonical encoding (docs/audit.md); absent on events written before the chain",
    }),
    prev_digest: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'The digest of the event before it in its stream; null for the first of a chain' }),
  })
  .meta({ id: 'AuditEvent' });
