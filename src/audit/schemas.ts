import { z } from 'zod';
import { credentialSchema, scopeSchema } from '../credential';
import { auditEventSchema } from './event-schema';

// What auditors read (docs/audit.md): one event (./event-schema.ts), a member's history, a line of the log export.

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
