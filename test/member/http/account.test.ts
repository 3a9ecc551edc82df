import request from 'supertest';
import { Answer, csrfOf, expectRefusal as refusal, logIn, registerMember, TestPlatform } from '../../support/platform';
import { mailedToken, mailsTo, Sink, uniqueEmail, startWithMail, stopWithMail } from '../mailed-links';

let sink: Sink;
let t: TestPlatform;
beforeAll(async () => {
  ({ sink, t } = await startWithMail({ PUBLIC_URL: 'https://portal.example.com' }));
});
afterAll(() => stopWithMail({ sink, t }));

const ACCOUNT = '/api/v1/developer/account';
const PASSWORD = '/api/v1/developer/password';
const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

async function write(client: request.Agent, method: 'post' | 'put', path: string, body: unknown) {
  const csrf = await csrfOf(client);
  return client[method](path)
    .set('X-CSRF-Token', csrf)
    .send(body as object);
}

describe('GET and PUT /developer/account', () => {
  it('shows the account and changes nickname and mobile at once', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('acct'), nickname: 'Old' });
    const before = await client.get(ACCOUNT).expect(200);
    expect(before.body.data).toEqual({
      id: member.id,
      username: member.username,
      nickname: 'Old',
      email: member.email,
      pending_email: null,
      mobile: null,
      password_reset_by: null,
    });
    const res = await write(client, 'put', ACCOUNT, {
      nickname: 'New name',
      email: member.email,
      mobile: '+8613800138000',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      nickname: 'New name',
      email: member.email,
      mobile: '+8613800138000',
      pending_email: null,
    });
    expect((await client.get('/api/v1/developer/dashboard').expect(200)).body.data.member.nickname).toBe('New name');
    const updated = (await t.allEvents()).filter((e) => e.type === 'ProfileUpdated' && e.data.member_id === member.id);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.metadata.actor).toEqual({ kind: 'member', id: member.id });
  });

  it('keeps the old address until the link mailed to the new one is followed', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('old') });
    const next = uniqueEmail('new');
    const res = await write(client, 'put', ACCOUNT, { email: next, current_password: member.password });
    expect(res.body.data).toMatchObject({ email: member.email, pending_email: next });
    const { token, mail } = await mailedToken(sink, next);
    expect(mail.text).toContain('https://portal.example.com/ui/developer/confirm-email?token=');
    const confirmed = await write(t.client(), 'post', `${ACCOUNT}/confirm-email`, { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toEqual({ username: member.username, email: next });
    expect((await client.get(ACCOUNT).expect(200)).body.data).toMatchObject({ email: next, pending_email: null });
    await expectRefusal(
      () => write(t.client(), 'post', `${ACCOUNT}/confirm-email`, { token }),
      422,
      'email_token_unknown',
    );
  });

  it('refuses what registration refuses, listing each field, and changes nothing', async () => {
    const client = t.client();
    await registerMember(client, { email: uniqueEmail('rules') });
    const res = await expectRefusal(
      () => write(client, 'put', ACCOUNT, { nickname: 'a\u202Eb', email: 'not-an-address', mobile: '12' }),
      422,
      'validation_failed',
    );
    expect(res.body.data.issues!.map((issue) => issue.path).sort()).toEqual(['email', 'mobile', 'nickname']);
    await expectRefusal(() => write(client, 'put', ACCOUNT, { nickname: 'x' }), 422, 'validation_failed');
    await expectRefusal(
      () => write(client, 'put', ACCOUNT, { email: uniqueEmail('x'), username: 'renamed' }),
      422,
      'validation_failed',
    );
  });

  it('refuses a caller who is not signed in, and a wrong CSRF token', async () => {
    await expectRefusal(() => t.client().get(ACCOUNT), 401, 'not_logged_in');
    const client = t.client();
    await registerMember(client, { email: uniqueEmail('csrf') });
    await expectRefusal(
      () =>
        client
          .put(ACCOUNT)
          .set('X-CSRF-Token', 'stale')
          .send({ email: uniqueEmail('y') }),
      419,
      'csrf_token_invalid',
    );
  });
});

describe('POST /developer/password and /developer/sessions/end-others', () => {
  it('changes the password given the current one, ends the other sessions and keeps this one', async () => {
    const here = t.client();
    const member = await registerMember(here, { email: uniqueEmail('pw') });
    const elsewhere = t.client();
    await logIn(elsewhere, member);
    const res = await write(here, 'post', PASSWORD, {
      current_password: member.password,
      new_password: 'changed-secret',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sessions_ended: 1 });
    await here.get(ACCOUNT).expect(200);
    await expectRefusal(() => elsewhere.get(ACCOUNT), 401, 'session_expired');
    await logIn(t.client(), { username: member.username, password: 'changed-secret' });
    const old = await write(t.client(), 'post', '/api/v1/developer/login', {
      username: member.username,
      password: member.password,
    });
    expect(old.status).toBe(401);
  });

  it('refuses a wrong current password, changing nothing, and limits the guesses as logins are', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('guess') });
    for (let i = 0; i < 5; i++) {
      await expectRefusal(
        () => write(client, 'post', PASSWORD, { current_password: 'wrong-guess', new_password: 'whatever-secret' }),
        422,
        'wrong_current_password',
      );
    }
    await expectRefusal(
      () => write(client, 'post', PASSWORD, { current_password: member.password, new_password: 'whatever-secret' }),
      429,
      'too_many_password_failures',
    );
    await logIn(t.client(), member);
  });

  it('records nothing for the current password given as the new one', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('same') });
    const res = await write(client, 'post', PASSWORD, {
      current_password: member.password,
      new_password: member.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sessions_ended: 0 });
    expect(
      (await t.allEvents()).filter((e) => e.type === 'PasswordChanged' && e.data.member_id === member.id),
    ).toHaveLength(0);
  });

  it('signs out everywhere else', async () => {
    const here = t.client();
    const member = await registerMember(here, { email: uniqueEmail('everywhere') });
    const [one, two] = [t.client(), t.client()];
    await logIn(one, member);
    await logIn(two, member);
    const res = await write(here, 'post', '/api/v1/developer/sessions/end-others', {});
    expect(res.body.data).toEqual({ sessions_ended: 2 });
    await here.get(ACCOUNT).expect(200);
    await expectRefusal(() => one.get(ACCOUNT), 401, 'session_expired');
    await expectRefusal(() => two.get(ACCOUNT), 401, 'session_expired');
  });
});

describe("an e-mail change: the current password, a notice to the old address, a day's limit", () => {
  async function changeTo(client: request.Agent, password: string) {
    const next = uniqueEmail('moved');
    return { next, answer: await write(client, 'put', ACCOUNT, { email: next, current_password: password }) };
  }

  it('refuses a new address without the current password, or with a wrong one, counting the wrong one as a failed login', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('pwd') });
    await expectRefusal(
      () => write(client, 'put', ACCOUNT, { email: uniqueEmail('x') }),
      422,
      'current_password_required',
    );
    for (let i = 0; i < 5; i++)
      await expectRefusal(
        () => write(client, 'put', ACCOUNT, { email: uniqueEmail('x'), current_password: 'wrong-guess' }),
        422,
        'wrong_current_password',
      );
    await expectRefusal(
      () => write(client, 'put', ACCOUNT, { email: uniqueEmail('x'), current_password: member.password }),
      429,
      'too_many_password_failures',
    );
    expect(
      (await t.allEvents()).filter((e) => e.type === 'EmailChangeRequested' && e.data.member_id === member.id),
    ).toHaveLength(0);
    // Nickname and mobile alone need no password.
    expect((await write(client, 'put', ACCOUNT, { nickname: 'Still me', email: member.email })).status).toBe(200);
  });

  it('mails the replaced address a link that restores it and signs every session out', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('victim') });
    const { next, answer } = await changeTo(client, member.password);
    expect(answer.status).toBe(200);
    const { token } = await mailedToken(sink, next);
    const confirmed = await write(t.client(), 'post', `${ACCOUNT}/confirm-email`, { token });
    expect(confirmed.body.message).toMatch(/restores it/);
    const { mail, token: restore } = await mailedToken(sink, member.email);
    expect(mail.subject).toBe('The e-mail address of your API platform account changed');
    expect(mail.text).toContain(next);
    expect(mail.text).toContain('https://portal.example.com/ui/developer/restore-email?token=');
    expect(mail.text).toContain('within 7 days');

    const restored = await write(t.client(), 'post', `${ACCOUNT}/restore-email`, { token: restore });
    expect(restored.status).toBe(200);
    expect(restored.body.data).toEqual({ username: member.username, email: member.email });
    await expectRefusal(() => client.get(ACCOUNT), 401, 'session_expired');
    await expectRefusal(
      () => write(t.client(), 'post', `${ACCOUNT}/restore-email`, { token: restore }),
      422,
      'restore_token_spent',
    );
    const again = t.client();
    await logIn(again, member);
    expect((await again.get(ACCOUNT).expect(200)).body.data.email).toBe(member.email);
    expect(JSON.stringify(await t.allEvents())).not.toContain(restore.split('.')[1]);
  });

  it('asks for at most 3 address changes a day (429 with Retry-After), mailing no more links', async () => {
    const client = t.client();
    const member = await registerMember(client, { email: uniqueEmail('often') });
    for (let i = 0; i < 3; i++) expect((await changeTo(client, member.password)).answer.status).toBe(200);
    const { next, answer } = await changeTo(client, member.password);
    expect(answer.status).toBe(429);
    expect(answer.body.data.error).toBe('too_many_email_changes');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(3600);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(sink, next)).toHaveLength(0);
  });
});
