import nodemailer from 'nodemailer';
import { SendMail } from '../shared/mail';

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
