import nodemailer from 'nodemailer';
import { SendMail } from '../shared/mail';
import type { Attempt } from '../shared/outbox';

/** What sends the service's mail, and lets its connections go at shutdown. */
export interface Mailer {
  send: SendMail;
  close(): void;
}

/** Mail through the SMTP server of SMTP_URL (smtp://user:pass@host:port, or smtps://), from MAIL_FROM. */
export function smtpSender(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async (to, mail) => {
      await transport.sendMail({ from, to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

/**
 * A failed send as an outbox attempt. An SMTP 5xx reply (RFC 5321: permanent, such as 550 no such
 * mailbox) is permanent: sending again gets the same answer. A 4xx or a connection that failed may
 * pass later.
 */
export function attemptOf(err: unknown): Attempt {
  const code = (err as { responseCode?: unknown }).responseCode;
  const cause = err instanceof Error ? err.message : String(err);
  return { delivered: false, cause, permanent: typeof code === 'number' && code >= 500 && code < 600 };
}
