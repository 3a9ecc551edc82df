import { AddressInfo } from 'node:net';
import { simpleParser, ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A loopback SMTP server that keeps every mail it is given, parsed, and hands each to `onMail`. */
export async function smtpSink(onMail: (mail: ParsedMail) => void = () => {}): Promise<{ server: SMTPServer; port: number; mails: ParsedMail[] }> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
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
