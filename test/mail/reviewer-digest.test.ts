import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParsedMail } from 'mailparser';
import { createAdmin } from '../../src/access/admins';
import { argon2Hasher } from '../../src/member/passwords';
import { DigestState } from '../../src/mail/reviewer-digest';
import { DocumentStore, Stores } from '../../src/stores/ports';
import { eventually } from '../support/eventually';
import { smtpSink } from '../support/mail-sink';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../support/platform';
import { stopTheClock } from '../support/still-clock';
import { SHELL } from '../../src/access/grantor';

const API = '/api/v1';
const WINDOW_MS = 6000;
const settings = {
  MAIL_FROM: 'platform@example.com',
  PUBLIC_URL: 'https://portal.example.com',
  ADMIN_EMAIL: 'root@example.com',
  ADMIN_DIGEST_MINUTES: WINDOW_MS / 60_000,
};

let sink: Awaited<ReturnType<typeof smtpSink>>;
let dir: string;
let t: TestPlatform;
/** When each mail reached the sink, by its place in sink.mails. */
const arrivals: number[] = [];

const to = (mail: ParsedMail): string => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');
const mailsTo = (address: string) =>
  sink.mails.map((m, i) => ({ mail: m, at: arrivals[i]! })).filter(({ mail }) => to(mail) === address);

const windowPasses = () => jest.setSystemTime(Date.now() + WINDOW_MS);

/** Turns the digest notifier began: each starts by reading its checkpoint. */
let turns = 0;
function countingTurns(stores: Stores): Stores {
  const documents: DocumentStore = stores.documents;
  const checkpoint = documents.checkpoint.bind(documents);
  documents.checkpoint = (projection) => {
    if (projection === 'admin_digest') turns += 1;
    return checkpoint(projection);
  };
  return stores;
}

/** Until a whole turn of the notifier ran from now: time for any mail it would send, a duplicate included. */
async function aTurnLater(): Promise<void> {
  const begun = turns;
  await eventually(() => turns >= begun + 2, { what: 'a whole turn of the digest notifier' });
}

/** Until the notifier has collected this member's application, to mail it with the next digest. */
async function waiting(member: { id: number }): Promise<void> {
  const state = async () => (await t.platform.stores.documents.get<DigestState>('admin_digest', 'state'))?.doc;
  await eventually(async () => (await state())?.items.some((item) => item.member_id === member.id), {
    what: `member ${member.id} waiting for the next digest`,
  });
}

const start = () => startPlatform({ ...settings, SMTP_URL: `smtp://127.0.0.1:${sink.port}` }, dir, countingTurns);

beforeAll(async () => {
  stopTheClock();
  sink = await smtpSink();
  const push = sink.mails.push.bind(sink.mails);
  sink.mails.push = (...mails: ParsedMail[]) => {
    arrivals.push(...mails.map(() => Date.now()));
    return push(...mails);
  };
  dir = mkdtempSync(join(tmpdir(), 'digest-test-'));
  t = await start();
  const cli = { actor: { kind: 'cli' as const, id: 'test' }, requestId: 'test', now: new Date() };
  // An auditor (no credential.review) with an address, and a reviewer without one: neither is mailed.
  await createAdmin(
    t.platform.stores.events,
    argon2Hasher(),
    { username: 'auditor', password: 'secret1', is_super: false, role_id: 2, email: 'auditor@example.com' },
    SHELL,
    cli,
  );
  await createAdmin(
    t.platform.stores.events,
    argon2Hasher(),
    { username: 'operator', password: 'secret1', is_super: false, role_id: 1 },
    SHELL,
    cli,
  );
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  jest.useRealTimers();
});

describe('the reviewers digest', () => {
  it('mails the applications and scope requests of one window still to review in one mail, the next only after the window, across a restart, never twice', async () => {
    const [alice, bob, carol] = [t.client(), t.client(), t.client()];
    const [a, b, c] = [await registerMember(alice), await registerMember(bob), await registerMember(carol)];
    const admin = t.client();
    const adminToken = await logInAdmin(admin);

    // Within one window: alice applies, is approved, claims her key and asks for two scopes, one of
    // them approved at once; bob applies. What was decided before the mail went is not to review.
    await alice.post(`${API}/developer/credential`).set('X-CSRF-Token', a.token).send({}).expect(200);
    await admin.post(`${API}/credentials/${a.id}/approve`).set('X-CSRF-Token', adminToken).send({}).expect(200);
    await alice.post(`${API}/developer/claim`).set('X-CSRF-Token', a.token).send({}).expect(200);
    await alice
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', a.token)
      .send({ scopes: ['addons.read', 'member-groups.read'], reason: 'to list add-ons' })
      .expect(200);
    await admin
      .post(`${API}/credentials/${a.id}/scopes/member-groups.read/approve`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(200);
    await bob.post(`${API}/developer/credential`).set('X-CSRF-Token', b.token).send({}).expect(200);

    await waiting(b);
    windowPasses();
    await eventually(() => mailsTo('root@example.com').length >= 1, { what: 'the first digest' });
    await aTurnLater();
    const first = mailsTo('root@example.com');
    expect(first).toHaveLength(1);
    const digest = first[0]!.mail;
    expect(digest.subject).toBe('To review: 1 application(s) and 1 scope request(s)');
    expect(digest.from?.text).toBe('platform@example.com');
    const entries = (digest.text ?? '').split('\n').filter((line) => line.startsWith('- '));
    expect(entries).toEqual([
      `- member ${b.id}, ${b.username}`,
      `- member ${a.id}, ${a.username}: addons.read, because "to list add-ons"`,
    ]);
    expect(digest.text).toContain('https://portal.example.com/ui/admin/credentials');
    expect(digest.text).toContain('https://portal.example.com/ui/admin/scopes');

    // Carol applies right after the digest, and the service restarts once her application is
    // kept for the next digest: she is listed in it, a window after the first, and what was mailed
    // is not mailed again.
    await carol.post(`${API}/developer/credential`).set('X-CSRF-Token', c.token).send({}).expect(200);
    await waiting(c);
    await t.close();
    t = await start();
    windowPasses();
    await eventually(() => mailsTo('root@example.com').length >= 2, { what: 'the second digest' });
    windowPasses();
    await aTurnLater(); // a window on, time for a third, were anything sent again
    const second = mailsTo('root@example.com');
    expect(second).toHaveLength(2);
    expect(second[1]!.at - second[0]!.at).toBeGreaterThanOrEqual(WINDOW_MS);
    expect(second[1]!.mail.subject).toBe('To review: 1 application(s)');
    expect(second[1]!.mail.text).toContain(c.username);
    expect(second[1]!.mail.text).not.toContain(a.username);
    expect(mailsTo('auditor@example.com')).toHaveLength(0);
  }, 60_000);
});
