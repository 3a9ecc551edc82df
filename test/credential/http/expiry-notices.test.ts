import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { smtpSink } from '../../support/mail-sink';
import { logInAdmin, registerMember, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';

const API = '/api/v1';
let sink: Awaited<ReturnType<typeof smtpSink>>;
let receiver: Server;
const told: { type: string; data: Record<string, unknown> }[] = [];
let t: TestPlatform;

beforeAll(async () => {
  sink = await smtpSink();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      told.push(JSON.parse(body) as (typeof told)[number]);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t = await startPlatform({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    WEBHOOK_ALLOW_PRIVATE: true,
    EXPIRY_REMINDER_DAYS: [30, 7, 1],
  });
});
afterAll(async () => {
  await t.close();
  receiver.close();
  await new Promise<void>((resolve) => sink.server.close(() => resolve()));
});

const until = async (check: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('expiry reminders', () => {
  let admin: ReturnType<TestPlatform['client']>;
  let token: string;
  beforeAll(async () => {
    admin = t.client();
    token = await logInAdmin(admin);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await admin
      .post(`${API}/webhooks`)
      .set('X-CSRF-Token', token)
      .send({ url, events: ['credential.expiring', 'credential.expired'] })
      .expect(200);
  });

  /** A member whose key, claimed now, expires at `expiresAt`. */
  async function claimedUntil(expiresAt: string) {
    const developer = t.client();
    const username = uniqueUsername();
    const member = await registerMember(developer, { username, email: `${username}@example.com` });
    await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    await admin
      .post(`${API}/credentials/${member.id}/approve`)
      .set('X-CSRF-Token', token)
      .send({ expires_at: expiresAt })
      .expect(200);
    await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
    return member;
  }
  /** The subjects of the mails sent to this member, whose address is made of the username. */
  const subjectsTo = (username: string) =>
    sink.mails
      .filter((m) => [m.to].flat().some((to) => to?.text === `${username.toLowerCase()}@example.com`))
      .map((m) => m.subject);

  it('a key that lives a day and two seconds: reminded a day before, by mail and webhook', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000 + 2000).toISOString();
    const member = await claimedUntil(expiresAt);
    await until(() => told.some((e) => e.type === 'credential.expiring' && e.data.member_id === member.id));
    await new Promise((r) => setTimeout(r, 1500));
    expect(told.filter((e) => e.data.member_id === member.id)).toEqual([
      {
        type: 'credential.expiring',
        timestamp: expect.any(String),
        data: { member_id: member.id, username: member.username, expires_at: expiresAt, days_before: 1 },
      },
    ]);
    await until(() => subjectsTo(member.username).length >= 2);
    expect(subjectsTo(member.username)).toEqual([
      'Your API credential application was approved',
      'Your API key expires in 1 day(s)',
    ]);
  });

  it('a key that lives two seconds: no reminder of a threshold it never lived through, then the expiry', async () => {
    const expiresAt = new Date(Date.now() + 2000).toISOString();
    const member = await claimedUntil(expiresAt);
    await until(() => told.some((e) => e.type === 'credential.expired' && e.data.member_id === member.id));
    await new Promise((r) => setTimeout(r, 1500));
    expect(told.filter((e) => e.data.member_id === member.id)).toEqual([
      {
        type: 'credential.expired',
        timestamp: expect.any(String),
        data: { member_id: member.id, username: member.username, expires_at: expiresAt },
      },
    ]);
    await until(() => subjectsTo(member.username).length >= 2);
    expect(subjectsTo(member.username)).toEqual([
      'Your API credential application was approved',
      'Your API key expired',
    ]);
  });
});
