import { REFUSED_MAILBOX, smtpSink } from '../support/mail-sink';
import { scrape, valueOf } from '../support/metrics';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../support/platform';

const API = '/api/v1';
const REFUSING = 'gone@example.com';
const ACCEPTING = 100;

let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestPlatform;
beforeAll(async () => {
  sink = await smtpSink(undefined, (address) => address === REFUSING);
  t = await startPlatform({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    MAIL_FROM: 'platform@example.com',
    METRICS_PORT: 0,
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => sink.server.close(() => resolve()));
});

interface ListedMail {
  id: string;
  status: string;
  attempts: number;
  cause: string | null;
}

const recipients = () => new Set(sink.mails.map((m) => (m.to && !Array.isArray(m.to) ? m.to.text : '')));

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('one refused address among member mails', () => {
  it("is dead at once with the server's answer, while the 100 other members get their mail within 60 s; an administrator lists and retries it", async () => {
    const admin = t.client();
    const adminToken = await logInAdmin(admin);
    const applied = async (email: string) => {
      const developer = t.client();
      const member = await registerMember(developer, { email });
      await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
      return member;
    };
    const refused = await applied(REFUSING);
    const others = [];
    for (let i = 0; i < ACCEPTING; i += 1) others.push(await applied(`member${i}@example.com`));

    const started = Date.now();
    // The refused member's mail is the first in the log: a mail that blocked would hold back all the others.
    for (const member of [refused, ...others]) {
      await admin.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', adminToken).send({}).expect(200);
    }
    const delivered = await until(recipients, (to) => to.size >= ACCEPTING, 60_000);
    const seconds = (Date.now() - started) / 1000;
    expect(delivered.size).toBe(ACCEPTING);
    expect(delivered.has(REFUSING)).toBe(false);
    expect(seconds).toBeLessThan(60);

    const deadMails = async (): Promise<ListedMail[]> =>
      (await admin.get(`${API}/mails?status=dead`).expect(200)).body.data.list;
    const dead = await until(deadMails, (list) => list.length > 0, 5000);
    expect(dead).toEqual([
      expect.objectContaining({
        kind: 'member',
        to: REFUSING,
        subject: 'Your API credential application was approved',
        status: 'dead',
        attempts: 1,
        cause: expect.stringContaining('550'),
      }),
    ]);
    const [refusedMail] = dead as [ListedMail];
    expect(refusedMail.cause).toContain(REFUSED_MAILBOX);
    const sent = (await admin.get(`${API}/mails?status=delivered`).expect(200)).body.data.list;
    expect(sent).toHaveLength(ACCEPTING);
    // What the operators see: one dead mail (PlatformMailDead fires on it), a hundred delivered.
    const { samples } = await scrape(t);
    expect(valueOf(samples, 'platform_mails_dead')).toBe(1);
    expect(valueOf(samples, 'platform_mail_attempts_total', { outcome: 'dead' })).toBe(1);
    expect(valueOf(samples, 'platform_mail_attempts_total', { outcome: 'delivered' })).toBe(ACCEPTING);

    const retry = await admin
      .post(`${API}/mails/${encodeURIComponent(refusedMail.id)}/retry`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(200);
    expect(retry.body.data).toMatchObject({ id: refusedMail.id, status: 'pending' });
    // Still refused: dead again after one more attempt, with the new answer.
    const again = await until(deadMails, (list) => list[0]?.attempts === 2, 5000);
    expect(again).toEqual([
      expect.objectContaining({
        id: refusedMail.id,
        status: 'dead',
        attempts: 2,
        cause: expect.stringContaining('550'),
      }),
    ]);
  }, 180_000);

  it('is for administrators only, and a mail the outbox never held is 404', async () => {
    const admin = t.client();
    const adminToken = await logInAdmin(admin);
    const missing = await admin
      .post(`${API}/mails/member:999999/retry`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(404);
    expect(missing.body.data.error).toBe('mail_not_found');
    const anonymous = await t.client().get(`${API}/mails`);
    expect(anonymous.status).toBe(401);
  });
});
