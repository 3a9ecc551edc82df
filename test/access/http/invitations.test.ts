import request from 'supertest';
import { Answer, csrfOf, expectRefusal as refusal, TestPlatform, uniqueUsername } from '../../support/platform';
import { mailedToken, mailsTo, Sink, startWithMail, stopWithMail, uniqueEmail } from '../../member/mailed-links';
import { auditExport } from '../../support/audit-export';
import { adminBrowser, AdminBrowser, tryLogin } from './access-clients';

let sink: Sink;
let t: TestPlatform;
let root: AdminBrowser;
let role_group_id: number;
beforeAll(async () => {
  ({ sink, t } = await startWithMail({ PUBLIC_URL: 'https://portal.example.com' }));
  root = await adminBrowser(t);
  role_group_id = (await root.post('/role-groups', { name: 'Invitees', permissions: ['addon.view'] }).expect(200)).body
    .data.id;
});
afterAll(() => stopWithMail({ sink, t }));

const ACCEPT = '/api/v1/admin/invitation/accept';
const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

/** The invitee's browser: no session but the anonymous one, and its CSRF token, as the console's page has. */
async function accept(token: string, password: string, client: request.Agent = t.client()) {
  // Fetched first: the agent sends the cookies it held when the request was made.
  const csrf = await csrfOf(client);
  return client.post(ACCEPT).set('X-CSRF-Token', csrf).send({ token, password });
}

async function accepted(token: string, password: string) {
  const res = await accept(token, password);
  expect([res.status, res.body.data?.error]).toEqual([200, undefined]);
  return res;
}

async function invite(prefix = 'inv') {
  const username = uniqueUsername(prefix);
  const email = uniqueEmail(prefix);
  const created = await root.post('/administrators', { username, role_group_id, email }).expect(200);
  const { mail, token } = await mailedToken(sink, email);
  return { username, email, id: created.body.data.id as number, created: created.body, mail, token };
}

describe('inviting an administrator by mail', () => {
  it('answers no password, mails a link that sets one once, and the administrator signs in with it', async () => {
    const { username, email, id, created, mail, token } = await invite();
    expect(created.data).toEqual({
      id,
      username,
      is_super: false,
      role_id: role_group_id,
      email,
      enabled: true,
      single_sign_on: false,
      second_factors: { passkeys: 0, totp: false },
      password: null,
      invitation_sent_to: email,
    });
    expect(created.message).toContain(`mailed to ${email}`);
    expect(mail.subject).toBe('You are invited to administer the API platform');
    expect(mail.text).toContain('https://portal.example.com/ui/admin/invitation?token=');
    expect(mail.text).toContain('within 72 hours');
    expect(token).toMatch(new RegExp(`^${id}\\.`));

    const answer = await accepted(token, 'chosen-secret');
    expect(answer.body.data).toEqual({ username });
    expect((await tryLogin(t, { username, password: 'chosen-secret' })).status).toBe(200);

    await expectRefusal(() => accept(token, 'another-secret'), 422, 'invitation_token_spent');
    expect((await tryLogin(t, { username, password: 'another-secret' })).status).toBe(401);
  });

  it('keeps only the digest of the token, and tells the audit export who invited and who accepted', async () => {
    const { id, token } = await invite('audit');
    await accepted(token, 'chosen-secret');
    expect(JSON.stringify(await t.allEvents())).not.toContain(token.split('.')[1]);
    const ours = (await auditExport(root)).filter(
      (line) => line.data?.admin_id === id && line.type !== 'AdminIdAllocated',
    );
    expect(ours.map((line) => [line.type, line.actor?.kind, line.actor?.id])).toEqual([
      ['AdminCreated', 'admin', 1],
      ['AdminInvited', 'admin', 1],
      ['AdminInvitationAccepted', 'admin', id],
    ]);
    expect(ours[1]!.summary).toMatch(
      new RegExp(`^mailed administrator ${id} an invitation to choose their password, good until \\d{4}-`),
    );
    expect(ours[2]!.summary).toBe(`administrator ${id} chose their password through their invitation link`);
    expect(JSON.stringify(ours)).not.toMatch(/token_digest|password_hash/);
  });

  it('refuses an unknown, a made-up and a malformed token, and changes nothing', async () => {
    const { id, username } = await invite('unknown');
    await expectRefusal(() => accept(`${id}.${'A'.repeat(43)}`, 'chosen-secret'), 422, 'invitation_token_unknown');
    await expectRefusal(() => accept(`999999.${'A'.repeat(43)}`, 'chosen-secret'), 422, 'invitation_token_unknown');
    await expectRefusal(() => accept('not-a-token', 'chosen-secret'), 422, 'invitation_token_unknown');
    expect((await tryLogin(t, { username, password: 'chosen-secret' })).status).toBe(401);
  });

  it('refuses a password the member rules refuse, and the link still works after', async () => {
    const { token } = await invite('short');
    await expectRefusal(() => accept(token, 'abc'), 422, 'validation_failed');
    await accepted(token, 'chosen-secret');
  });

  it("refuses a disabled administrator's invitation; enabled again, it works", async () => {
    const { id, token, username } = await invite('disabled');
    await root.post(`/administrators/${id}/disable`).expect(200);
    await expectRefusal(() => accept(token, 'chosen-secret'), 403, 'admin_disabled');
    await root.post(`/administrators/${id}/enable`).expect(200);
    await accepted(token, 'chosen-secret');
    expect((await tryLogin(t, { username, password: 'chosen-secret' })).status).toBe(200);
  });

  it('is spent by a password reset: the one-time password counts, the link does not', async () => {
    const { id, token, username } = await invite('reset');
    const reset = await root.post(`/administrators/${id}/password-reset`).expect(200);
    expect(reset.body.data.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    await expectRefusal(() => accept(token, 'chosen-secret'), 422, 'invitation_token_spent');
    expect((await tryLogin(t, { username, password: reset.body.data.password })).status).toBe(200);
  });

  it('of two uses of one link at the same moment, exactly one wins', async () => {
    const { token, username } = await invite('race');
    const answers = await Promise.all([accept(token, 'first-secret'), accept(token, 'second-secret')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const loser = answers.find((a) => a.status === 422)!;
    expect(loser.body.data.error).toBe('invitation_token_spent');
    const winner = answers[0]!.status === 200 ? 'first-secret' : 'second-secret';
    expect((await tryLogin(t, { username, password: winner })).status).toBe(200);
  });

  it('answers a one-time password, and mails nothing, for an administrator without an e-mail address', async () => {
    const username = uniqueUsername('plain');
    const before = sink.mails.length;
    const created = await root.post('/administrators', { username, role_group_id }).expect(200);
    expect(created.body.data).toMatchObject({
      email: null,
      invitation_sent_to: null,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    expect((await tryLogin(t, { username, password: created.body.data.password })).status).toBe(200);
    expect(sink.mails.length).toBe(before);
  });

  it('mails one invitation per creation', async () => {
    const { email } = await invite('once');
    expect(mailsTo(sink, email)).toHaveLength(1);
  });
});
