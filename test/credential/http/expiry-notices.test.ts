import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { smtpSink } from '../../support/mail-sink';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

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
  t = await startPlatform({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, WEBHOOK_ALLOW_PRIVATE: true, EXPIRY_REMINDER_DAYS: [30, 7, 1] });
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
  it('a key expiring in two seconds: one reminder, then the expiry, each by mail and webhook', async () => {
    const admin = t.client();
    const token = await logInAdmin(admin);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await admin.post(`${API}/webhooks`).set('X-CSRF-Token', token).send({ url, events: ['credential.expiring', 'credential.expired'] }).expect(200);

    const developer = t.client();
    const member = await registerMember(developer);
    await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const expiresAt = new Date(Date.now() + 2000).toISOString();
    await admin.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', token).send({ expires_at: expiresAt }).expect(200);
    await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);

    await until(() => told.some((e) => e.type === 'credential.expired'));
    await new Promise((r) => setTimeout(r, 1500));
    const mine = told.filter((e) => e.data.member_id === member.id);
    expect(mine).toEqual([
      { type: 'credential.expiring', timestamp: expect.any(String), data: { member_id: member.id, username: member.username, expires_at: expiresAt, days_before: 1 } },
      { type: 'credential.expired', timestamp: expect.any(String), data: { member_id: member.id, username: member.username, expires_at: expiresAt } },
    ]);
    await until(() => sink.mails.length >= 3);
    expect(sink.mails.map((m) => m.subject)).toEqual(['Your API credential application was approved', 'Your API key expires in 1 day(s)', 'Your API key expired']);
  });
});
