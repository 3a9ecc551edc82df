import { mailedToken, startWithMail, stopWithMail, uniqueEmail, Sink } from '../member/mailed-links';
import { scrape, valueOf } from '../support/metrics';
import { csrfOf, registerMember, startPlatform, TestPlatform } from '../support/platform';
import { closedPort } from '../support/black-hole';
import { eventually } from '../support/eventually';

const MAILS = 'platform_mails_total';

async function askReset(t: TestPlatform, login: string): Promise<void> {
  const client = t.client();
  const csrf = await csrfOf(client);
  await client.post('/api/v1/developer/password-reset').set('X-CSRF-Token', csrf).send({ login }).expect(200);
}

function mailsCounted(t: TestPlatform, outcome: 'sent' | 'failed', atLeast: number): Promise<number> {
  return eventually(
    async () => {
      const value = valueOf((await scrape(t)).samples, MAILS, { outcome }) ?? 0;
      return value >= atLeast && value;
    },
    { within: 10_000, every: 100, what: `${atLeast} mail(s) counted ${outcome}` },
  );
}

// The links the API process mails itself (password reset, e-mail confirmation, invitations) are
// counted as the notifiers' mail is: an operator's "mail failing" alert must see them too.
describe('mails the API sends itself', () => {
  it('are counted as sent once the SMTP server took them', async () => {
    const { sink, t }: { sink: Sink; t: TestPlatform } = await startWithMail({ METRICS_PORT: 0 });
    try {
      const member = await registerMember(t.client(), { email: uniqueEmail('counted') });
      const before = valueOf((await scrape(t)).samples, MAILS, { outcome: 'sent' }) ?? 0;
      await askReset(t, member.username);
      await mailedToken(sink, member.email);
      expect(await mailsCounted(t, 'sent', before + 1)).toBe(before + 1);
    } finally {
      await stopWithMail({ sink, t });
    }
  });

  it('are counted as failed when the SMTP server cannot be reached', async () => {
    const t = await startPlatform({ METRICS_PORT: 0, SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const member = await registerMember(t.client(), { email: uniqueEmail('unsent') });
      await askReset(t, member.username);
      expect(await mailsCounted(t, 'failed', 1)).toBe(1);
      expect(valueOf((await scrape(t)).samples, MAILS, { outcome: 'sent' }) ?? 0).toBe(0);
    } finally {
      await t.close();
    }
  });
});
