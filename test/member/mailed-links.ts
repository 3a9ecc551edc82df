import type { ParsedMail } from 'mailparser';
import type { Settings } from '../../src/config';
import { smtpSink } from '../support/mail-sink';
import type request from 'supertest';
import { csrfOf, startPlatform, TestPlatform } from '../support/platform';

export type Sink = Awaited<ReturnType<typeof smtpSink>>;

const recipient = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');

/** The mails the sink got for this address so far. */
export const mailsTo = (sink: Sink, address: string) => sink.mails.filter((mail) => recipient(mail) === address);

const TOKEN = /token=([^\s]+)/;

/** Waits for the `nth` mail (1-based) with a link to the address (other mail may come too), and answers its token. */
export async function mailedToken(sink: Sink, address: string, nth = 1): Promise<{ mail: ParsedMail; token: string }> {
  const linked = () => mailsTo(sink, address).filter((mail) => TOKEN.test(mail.text ?? ''));
  const deadline = Date.now() + 5000;
  while (linked().length < nth && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const mail = linked()[nth - 1];
  if (!mail) throw new Error(`no mail #${nth} with a link to ${address}`);
  return { mail, token: decodeURIComponent(TOKEN.exec(mail.text ?? '')![1]!) };
}

let counter = 0;
export const uniqueEmail = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}@example.com`;

/** A test platform whose mail goes to a loopback sink of its own. */
export async function startWithMail(overrides: Partial<Settings> = {}): Promise<{ sink: Sink; t: TestPlatform }> {
  const sink = await smtpSink();
  return { sink, t: await startPlatform({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, ...overrides }) };
}

export async function stopWithMail({ sink, t }: { sink: Sink; t: TestPlatform }): Promise<void> {
  await t.close();
  await new Promise<void>((resolve) => sink.server.close(() => resolve()));
}

/** A write from a client with a session of its own (the agent sends the cookies it held when the request was made). */
export async function post(client: request.Agent, path: string, body: object) {
  const csrf = await csrfOf(client);
  return client.post(path).set('X-CSRF-Token', csrf).send(body);
}
