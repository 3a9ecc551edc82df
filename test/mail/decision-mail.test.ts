import { smtpSink } from '../support/mail-sink';
import { approvedMember } from '../support/credentials';
import { eventually } from '../support/eventually';
import { startPlatform, TestPlatform } from '../support/platform';

let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestPlatform;
beforeAll(async () => {
  sink = await smtpSink();
  t = await startPlatform({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    MAIL_FROM: 'platform@example.com',
    PUBLIC_URL: 'https://portal.example.com',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => sink.server.close(() => resolve()));
});

describe('mail to members', () => {
  it('one approval: exactly one mail, to the member, with the link to the developer center', async () => {
    const { member } = await approvedMember(t);
    await eventually(() => sink.mails.length > 0, { every: 100, what: 'the approval mailed' });
    // Time for a duplicate to arrive, were one sent.
    await new Promise((r) => setTimeout(r, 1000));
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails;
    expect(mail!.subject).toBe('Your API credential application was approved');
    expect(mail!.from?.text).toBe('platform@example.com');
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : '').toBe(member.email);
    expect(mail!.text).toContain('Your developer center: https://portal.example.com/ui/developer\n');
  });
});
