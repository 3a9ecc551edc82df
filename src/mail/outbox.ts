import { z } from 'zod';
import { Mail } from '../shared/mail';
import { OUTBOX_STATUSES, OutboxEntry, writePosition } from '../shared/outbox';
import type { Position } from '../stores/ports';

/**
 * Every mail a notifier means to send, one document each (an outbox entry, src/shared/outbox.ts):
 * written with the notifier's checkpoint, then sent by the mail sender on its own schedule, so a
 * refused address costs its own mail and never the others'.
 */
export const MAIL_OUTBOX = { name: 'mail_outbox', indexes: ['status'] };

/** What a mail is: a member's mail about a decision, or a reviewers' digest. */
export const MAIL_KINDS = ['member', 'digest'] as const;

export interface OutboxMail extends OutboxEntry {
  /** `<kind>:<what it is about>`: the same event or digest is queued once, however often it is read. */
  id: string;
  kind: (typeof MAIL_KINDS)[number];
  to: string;
  mail: Mail;
  queued_at: string;
}

/** A mail queued at the log position of what it tells of, due at once. */
export function queuedMail(
  id: string,
  kind: OutboxMail['kind'],
  to: string,
  mail: Mail,
  position: Position,
  now: Date,
): OutboxMail {
  const at = now.toISOString();
  return {
    id,
    kind,
    to,
    mail,
    queued_at: at,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    delivered_at: null,
    cause: null,
    event_position: position,
    revision: 0,
  };
}

/** The document write of a mail, after the previous write of it. */
export const mailWrite = (m: OutboxMail) => ({
  collection: MAIL_OUTBOX.name,
  id: m.id,
  doc: { ...m },
  position: writePosition(m),
});

export const outboxMailSchema = z
  .object({
    id: z.string(),
    kind: z.enum(MAIL_KINDS),
    to: z.string(),
    subject: z.string(),
    status: z.enum(OUTBOX_STATUSES),
    attempts: z.int().min(0),
    cause: z.string().nullable().meta({
      description: 'Why the last attempt failed, as the SMTP server or the connection said it; null once sent',
    }),
    queued_at: z.iso.datetime(),
    next_attempt_at: z.iso.datetime().nullable(),
    delivered_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OutboxMail' });

export const outboxMailView = (m: OutboxMail): z.infer<typeof outboxMailSchema> => ({
  id: m.id,
  kind: m.kind,
  to: m.to,
  subject: m.mail.subject,
  status: m.status,
  attempts: m.attempts,
  cause: m.cause ?? null,
  queued_at: m.queued_at,
  next_attempt_at: m.next_attempt_at,
  delivered_at: m.delivered_at,
});
