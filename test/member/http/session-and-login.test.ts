import { csrfOf, expectLoginRefusedAlike, registerMember, sessionCookie } from '../../support/platform';
import { expectRefusal, t, useFilePlatform } from '../../support/file-platform';

useFilePlatform();

const LOGIN = '/api/v1/developer/login';
const LOGOUT = '/api/v1/developer/logout';
const DASHBOARD = '/api/v1/developer/dashboard';

describe('GET /developer/session', () => {
  it('returns a CSRF token and sets an HttpOnly, SameSite=Lax PHPSESSID cookie', async () => {
    const client = t.client();
    const res = await client.get('/api/v1/developer/session').expect(200);
    expect(res.body).toEqual({
      code: 0,
      message: 'ok',
      data: { csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
    const cookie = sessionCookie(res);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the same token for the same session until it is rotated', async () => {
    const client = t.client();
    expect(await csrfOf(client)).toBe(await csrfOf(client));
    expect(await csrfOf(t.client())).not.toBe(await csrfOf(client));
  });
});

describe('POST /developer/login', () => {
  it('logs in case-insensitively under a new session id, rotating the token', async () => {
    const member = await registerMember(t.client(), { nickname: 'Nick' });
    const client = t.client();
    const before = await client.get('/api/v1/developer/session');
    const token = before.body.data.csrf_token;
    const res = await client
      .post(LOGIN)
      .set('X-CSRF-Token', token)
      .send({ username: member.username.toUpperCase(), password: 'secret1' })
      .expect(200);
    expect(res.body.data).toEqual({
      id: member.id,
      username: member.username,
      nickname: 'Nick',
      password_change_required: false,
      second_factor_required: false,
      second_factor_enrolment_required: false,
    });
    expect(sessionCookie(res)!.split(';')[0]).not.toBe(sessionCookie(before)!.split(';')[0]);
    expect(await csrfOf(client)).not.toBe(token);
    await client.get(DASHBOARD).expect(200);
  });

  it('answers a nickname-less member with an empty nickname, a string as the contract types it, on login and dashboard', async () => {
    const member = await registerMember(t.client());
    const client = t.client();
    const token = await csrfOf(client);
    const res = await client
      .post(LOGIN)
      .set('X-CSRF-Token', token)
      .send({ username: member.username, password: 'secret1' })
      .expect(200);
    expect(res.body.data.nickname).toBe('');
    expect((await client.get(DASHBOARD).expect(200)).body.data.member.nickname).toBe('');
  });

  it('refuses a wrong password and an unknown username alike with 401', async () => {
    const member = await registerMember(t.client());
    const client = t.client();
    await expectLoginRefusedAlike(t, client, LOGIN, member);
    await client.get(DASHBOARD).expect(401);
  });

  it('refuses a missing and a stale token with 419', async () => {
    const member = await registerMember(t.client());
    const client = t.client();
    const stale = await csrfOf(client);
    await client
      .post(LOGIN)
      .set('X-CSRF-Token', stale)
      .send({ username: member.username, password: 'secret1' })
      .expect(200);
    await expectRefusal(
      () => client.post(LOGIN).send({ username: member.username, password: 'secret1' }),
      419,
      'csrf_token_missing',
    );
    await expectRefusal(
      () => client.post(LOGIN).set('X-CSRF-Token', stale).send({ username: member.username, password: 'secret1' }),
      419,
      'csrf_token_invalid',
    );
  });

  it('refuses a body without username and password with 422', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const res = await expectRefusal(
      () => client.post(LOGIN).set('X-CSRF-Token', token).send({}),
      422,
      'validation_failed',
    );
    expect(res.body.data.issues?.map((i) => i.path).sort()).toEqual(['password', 'username']);
  });
});

describe('POST /developer/logout', () => {
  it('drops the member identity and rotates the token', async () => {
    const client = t.client();
    const member = await registerMember(client);
    await client.post(LOGOUT).set('X-CSRF-Token', member.token).send({}).expect(200);
    await expectRefusal(() => client.get(DASHBOARD), 401, 'not_logged_in');
    expect(await csrfOf(client)).not.toBe(member.token);
  });

  it('refuses a session without a member with 401', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    await expectRefusal(() => client.post(LOGOUT).set('X-CSRF-Token', token).send({}), 401, 'not_logged_in');
  });

  it('refuses a missing token with 419 and a non-empty body with 422', async () => {
    const client = t.client();
    const member = await registerMember(client);
    await expectRefusal(() => client.post(LOGOUT).send({}), 419, 'csrf_token_missing');
    await expectRefusal(
      () => client.post(LOGOUT).set('X-CSRF-Token', member.token).send({ all: true }),
      422,
      'validation_failed',
    );
    await client.get(DASHBOARD).expect(200);
  });
});

describe('GET /developer/dashboard', () => {
  it('refuses a caller without a session with 401', async () => {
    await expectRefusal(() => t.client().get(DASHBOARD), 401, 'not_logged_in');
  });

  it('keeps the member logged in while the members read model lacks the member, answering 503 until it has it again', async () => {
    const client = t.client();
    const member = await registerMember(client);
    const documents = t.platform.stores.documents;
    const stored = (await documents.get('members', String(member.id)))!;
    // As a read model being rebuilt or repaired may be for a moment.
    await documents.write([
      { collection: 'members', id: String(member.id), doc: null, position: `${stored.position}~` },
    ]);
    const res = await expectRefusal(() => client.get(DASHBOARD), 503, 'read_model_unavailable');
    expect(res.headers['retry-after']).toBe('1');

    await documents.write([
      { collection: 'members', id: String(member.id), doc: stored.doc, position: `${stored.position}~~` },
    ]);
    expect((await client.get(DASHBOARD).expect(200)).body.data.member.username).toBe(member.username);
  });
});
