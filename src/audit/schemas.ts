import { z } from 'zod';
import { credentialSchema, scopeSchema } from '../credential';
import { eventMetadataSchema } from '../shared/domain/events';

// What auditors read (docs/audit.md): one event, a credential's history, a line of the log export.

const actorSchema = z
  .object({
    kind: eventMetadataSchema.shape.actor.shape.kind,
    id: z.union([z.int(), z.string()]).nullable().meta({ description: 'Member or administrator id; the operating-system user for cli' }),
    username: z.string().nullable().meta({ description: "The member's or administrator's username; null for system and cli" }),
  })
  .meta({ id: 'Actor' });

const auditEventSchema = z
  .object({
    position: z.string().meta({ description: 'Opaque position in the global log' }),
    stream: z.string(),
    revision: z.int().min(0),
    type: z.string(),
    time: z.iso.datetime().nullable().meta({ description: 'When it was recorded; null only for a stored event whose metadata has no readable time (it is invalid)' }),
    actor: actorSchema.nullable().meta({ description: 'Who did it; null only for a stored event whose metadata names no readable actor (it is invalid)' }),
    summary: z.string().meta({ description: 'What happened, in words, with the details that tell one decision from another (API id, expiry, grace period)' }),
    reason: z.string().optional().meta({ description: "The administrator's reason, or the reason the event carries" }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The event data without key digests, password hashes or other secrets' }),
    invalid: z.string().optional().meta({ description: 'Why this stored event does not fit its schema; it is shown as stored' }),
  })
  .meta({ id: 'AuditEvent' });

export const historySchema = z
  .object({
    member_id: z.int().min(1),
    username: z.string(),
    as_of: z.iso.datetime({ offset: true }).optional().meta({ description: 'The instant asked for, when one was' }),
    state: z
      .object({
        credential: credentialSchema,
        scopes: z.array(scopeSchema),
        expired: z.boolean().meta({
          description: 'Whether the credential, approved or active, was past its expires_at at that instant: its key was refused (401 credential_expired)',
        }),
      })
      .optional()
      .meta({ description: 'With as_of: the credential and its scopes at that instant, as the dashboard showed them' }),
    events: z.array(auditEventSchema),
  })
  .meta({ id: 'CredentialHistory' });

const exportEndSchema = z
  .object({
    next: z.string().meta({ description: 'Pass as from to continue after this export' }),
    count: z.int().min(0),
    more: z.boolean().meta({ description: 'Whether the log held more events when this export ended' }),
  })
  .meta({ id: 'AuditExportEnd' });

export const exportLineSchema = z
  .union([auditEventSchema, exportEndSchema])
  .meta({ id: 'AuditExportLine', description: 'One line: an event, or, last, the end line with the position to resume from' });
