import { z } from 'zod';
import { credentialSchema, scopeSchema } from '../credential';
import { eventMetadataSchema } from '../shared/domain/events';

// What auditors read (docs/audit.md): one event, a member's history, a line of the log export.

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
          description:
            'Whether the credential, approved or active, was past its expires_at at that instant: its key was refused (401 credential_expired)',
        }),
      })
      .optional()
      .meta({ description: 'With as_of: the credential and its scopes at that instant, as the dashboard showed them' }),
    events: z.array(auditEventSchema).meta({
      description:
        "Every event about the member in the order of the log: their account's (registration, passwords, profile, e-mail address) and their credential's and scopes', each with its actor",
    }),
  })
  // Named as the first clients knew it, when it held the credential's events only.
  .meta({ id: 'CredentialHistory' });

const exportEndSchema = z
  .object({
    from: z.string().meta({ description: "The from this export was asked for; '' for the beginning of the log" }),
    next: z.string().meta({ description: 'Pass as from to continue after this export' }),
    count: z.int().min(0),
    more: z.boolean().meta({ description: 'Whether the log held more events when this export ended' }),
    root: z
      .string()
      .meta({ description: "Merkle root (RFC 9162, base64) over the leaves of this export's events, in order" }),
    lines: z
      .string()
      .meta({ description: "SHA-256 (hex) of this export's event lines, each with its newline, as sent" }),
    signed_at: z.iso.datetime(),
    note: z.string().meta({
      description:
        'The C2SP signed note that says all of the above; a verifier holds every other field to it (docs/audit.md)',
    }),
  })
  .meta({ id: 'AuditExportEnd' });

export const exportLineSchema = z.union([auditEventSchema, exportEndSchema]).meta({
  id: 'AuditExportLine',
  description: 'One line: an event, or, last, the signed head with the position to resume from',
});

/** A page of the audit search: each event with the member it is about, and where the next page starts. */
export const searchPageSchema = z
  .object({
    list: z.array(
      auditEventSchema.extend({
        member_id: z.int().min(1).nullable().meta({
          description:
            'The member the event is about (its credential or account), for the link to their history; null when it is about none',
        }),
      }),
    ),
    next: z
      .string()
      .nullable()
      .meta({ description: 'Pass as after for the next page; null once the log is read to its end' }),
  })
  .meta({ id: 'AuditSearchPage' });
