import nodemailer from 'nodemailer';
import { SendMail } from './mail-notifier';

/** Mail through the SMTP server of SMTP_URL (smtp://user:pass@host:port, or smtps://), from MAIL_FROM. */
export function smtpSender(smtpUrl: string, from: string): { send: SendMail; close(): void } {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async (to, mail) => {
      await transport.sendMail({ from, to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}
