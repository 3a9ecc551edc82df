import type { ParsedMail } from 'mailparser';
import { smtpSink } from '../support/mail-sink';

export type Sink = Awaited<ReturnType<typeof smtpSink>>;

const recipient = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');

/** The mails the sink got for this address so far. */
export const mailsTo = (sink: Sink, address: string) => sink.mails.filter((mail) => recipient(mail) === address);

/** Waits for the `nth` mail (1-based) to the address, and answers the token of its link. */
export async function mailedToken(sink: Sink, address: string, nth = 1): Promise<{ mail: ParsedMail; token: string }> {
  const deadline = Date.now() + 5000;
  while (mailsTo(sink, address).length < nth && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const mail = mailsTo(sink, address)[nth - 1];
  if (!mail) throw new Error(`no mail #${nth} to ${address}`);
  const token = /token=([^\s]+)/.exec(mail.text ?? '')?.[1];
  if (!token) throw new Error(`the mail to ${address} holds no link with a token`);
  return { mail, token: decodeURIComponent(token) };
}

let counter = 0;
export const uniqueEmail = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}@example.com`;
