import { Answer, expectRefusal, logIn, registerMember } from '../../support/platform';
import { accessPlatformWithMail, adminBrowser, AdminBrowser, groupWithAdmin } from '../../access/http/access-clients';
import { mailedToken, mailsTo, post, uniqueEmail } from '../mailed-links';
import type { TestPlatform } from '../../support/platform';

// With mail, so that a member can hold an outstanding reset link when an administrator resets them.
const p = accessPlatformWithMail({ PASSWORD_RESET_ADDRESS_LIMIT: 10_000 });

const refused = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  expectRefusal(p.t, send, status, error);

/** A member logged in on `browser`, with an e-mail address. */
async function member(prefix: string) {
  const browser = p.t.client();
  const registered = await registerMember(browser, { email: uniqueEmail(prefix) });
  return { ...registered, browser };
}

/** Chooses the member's own password in place of the one-time one, as the console makes them do first. */
async function chooseOwn(browser: ReturnType<TestPlatform['client']>, oneTime: string) {
  const changed = await post(browser, '/api/v1/developer/password', {
    current_password: oneTime,
    new_password: `${oneTime}-own`,
  });
  expect(changed.status).toBe(200);
}

const reset = (by: AdminBrowser, id: number) => by.post(`/members/${id}/password-reset`);

describe('POST /members/:member_id/password-reset', () => {
  it('answers a one-time password that signs the member in; the old password and the old session stop working', async () => {
    const m = await member('otp');
    await m.browser.get('/api/v1/developer/dashboard').expect(200);
    const answer = await reset(p.root, m.id).expect(200);
    expect(answer.body.data).toEqual({
      member_id: m.id,
      username: m.username,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    expect(answer.body.message).toMatch(/not shown again/);
    await refused(() => m.browser.get('/api/v1/developer/dashboard'), 401, 'session_expired');
    expect(
      (await post(p.t.client(), '/api/v1/developer/login', { username: m.username, password: m.password })).status,
    ).toBe(401);
    const again = p.t.client();
    await logIn(again, { username: m.username, password: answer.body.data.password });
    // A one-time password is changed before anything else.
    await refused(() => again.get('/api/v1/developer/dashboard'), 403, 'password_change_required');
    await chooseOwn(again, answer.body.data.password);
    await again.get('/api/v1/developer/dashboard').expect(200);
  });

  it("spends the member's outstanding mailed reset link", async () => {
    const m = await member('spent');
    await post(p.t.client(), '/api/v1/developer/password-reset', { login: m.username });
    const { token } = await mailedToken(p.sink, m.email);
    await reset(p.root, m.id).expect(200);
    await refused(
      () => post(p.t.client(), '/api/v1/developer/password-reset/confirm', { token, password: 'link-secret' }),
      422,
      'reset_token_spent',
    );
  });

  it('refuses an administrator without access.manage (403), changing nothing', async () => {
    const m = await member('denied');
    const operator = await adminBrowser(p.t, await groupWithAdmin(p.root, ['addon.view', 'credential.review']));
    await refused(() => reset(operator, m.id), 403, 'permission_denied');
    await logIn(p.t.client(), m);
    await m.browser.get('/api/v1/developer/dashboard').expect(200);
  });

  it('answers 404 for a member that does not exist, saying where member ids are shown', async () => {
    const answer = await refused(() => reset(p.root, 999_999), 404, 'member_not_found');
    expect(answer.body.message).toMatch(/credential queue/);
    await refused(() => reset(p.root, 0), 422, 'invalid_path_parameter');
  });

  it('is told in the audit with the administrator as actor, and the password is nowhere in the log or the events', async () => {
    const m = await member('audit');
    const manager = await groupWithAdmin(p.root, ['access.manage', 'audit.read']);
    const asManager = await adminBrowser(p.t, manager);
    const answer = await reset(asManager, m.id).expect(200);
    const password = answer.body.data.password as string;

    const events = (await p.t.allEvents()).filter(
      (e) => e.type === 'PasswordResetByAdministrator' && e.data.member_id === m.id,
    );
    expect(events.map((e) => [e.data.admin_id, e.metadata.actor])).toEqual([
      [manager.id, { kind: 'admin', id: manager.id }],
    ]);
    expect(String(events[0]!.data.password_hash)).toMatch(/^\$argon2id\$/);
    const search = await asManager
      .get(`/audit/search?type=PasswordResetByAdministrator&actor=${manager.username}`)
      .expect(200);
    const found = search.body.data.list.filter((e: { member_id: number }) => e.member_id === m.id);
    expect(found).toHaveLength(1);
    expect(found[0].summary).toBe(
      `administrator ${manager.id} reset member ${m.id}'s password to a one-time password; every session of theirs ended`,
    );
    expect(found[0].actor).toMatchObject({ kind: 'admin', id: manager.id, username: manager.username });

    expect(JSON.stringify(await p.t.allEvents())).not.toContain(password);
    expect(p.t.logLines.join('\n')).not.toContain(password);
    expect(JSON.stringify(search.body)).not.toContain('argon2');
  });

  it('tells the member: a mail naming the administrator, and their account page until they acknowledge it', async () => {
    const m = await member('told');
    const manager = await groupWithAdmin(p.root, ['access.manage']);
    const answer = await reset(await adminBrowser(p.t, manager), m.id).expect(200);
    const deadline = Date.now() + 5000;
    while (mailsTo(p.sink, m.email).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [mail] = mailsTo(p.sink, m.email);
    expect(mail?.subject).toBe('An administrator reset your API platform password');
    expect(mail?.text).toContain(`administrator #${manager.id}`);
    expect(mail?.text).not.toContain(answer.body.data.password);

    const again = p.t.client();
    await logIn(again, { username: m.username, password: answer.body.data.password });
    await chooseOwn(again, answer.body.data.password);
    const account = await again.get('/api/v1/developer/account').expect(200);
    expect(account.body.data.password_reset_by).toEqual({ admin_id: manager.id });
    const acknowledged = await post(again, '/api/v1/developer/account/acknowledge-reset', {});
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body.data.password_reset_by).toBeNull();
    expect((await again.get('/api/v1/developer/account').expect(200)).body.data.password_reset_by).toBeNull();

    // A second acknowledgement has nothing to acknowledge: nothing is recorded.
    await post(again, '/api/v1/developer/account/acknowledge-reset', {});
    const told = (await p.t.allEvents()).filter(
      (e) => e.type === 'AdministratorResetAcknowledged' && e.data.member_id === m.id,
    );
    expect(told).toHaveLength(1);
  });
});
