import { AddressInfo } from 'node:net';
import { simpleParser, ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The sink's `RCPT TO` answer: a refused recipient gets this permanent reply. */
export const REFUSED_MAILBOX = 'no such mailbox here';

/**
 * A loopback SMTP server that keeps every mail it is given, parsed, and hands each to `onMail`.
 * Recipients `refuses` names are refused for good (550), as a server refuses an unknown mailbox.
 */
export async function smtpSink(
  onMail: (mail: ParsedMail) => void = () => {},
  refuses: (address: string) => boolean = () => false,
): Promise<{ server: SMTPServer; port: number; mails: ParsedMail[] }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, done) {
      if (!refuses(address.address)) return done();
      done(Object.assign(new Error(REFUSED_MAILBOX), { responseCode: 550 }));
    },
    onData(stream, _session, done) {
      simpleParser(stream).then((mail) => {
        mails.push(mail);
        onMail(mail);
        done();
      }, done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, mails };
}
