import {
  Answer,
  csrfOf,
  expectRefusal as refusal,
  logInAdmin,
  registerMember,
  sessionCookie,
  startPlatform,
  TestPlatform,
  uniqueUsername,
} from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

const REGISTER = '/api/v1/developer/register';
const LOGIN = '/api/v1/developer/login';
const LOGOUT = '/api/v1/developer/logout';
const DASHBOARD = '/api/v1/developer/dashboard';

const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

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

describe('POST /developer/register', () => {
  it('registers, logs the member in under a new session id, and rotates the token', async () => {
    const client = t.client();
    const first = await client.get('/api/v1/developer/session');
    const token = first.body.data.csrf_token;
    const username = uniqueUsername('Reg');
    const res = await client
      .post(REGISTER)
      .set('X-CSRF-Token', token)
      .send({ username, password: 'secret1', nickname: 'Reggie', mobile: '+8613800138000' })
      .expect(200);
    expect(res.body).toEqual({ code: 0, message: expect.any(String), data: { id: expect.any(Number), username } });
    expect(Number.isInteger(res.body.data.id) && res.body.data.id > 0).toBe(true);
    expect(sessionCookie(res)).toBeDefined();
    expect(sessionCookie(res)!.split(';')[0]).not.toBe(sessionCookie(first)!.split(';')[0]);

    const dashboard = await client.get(DASHBOARD).expect(200);
    expect(dashboard.body.data.member).toEqual({
      id: res.body.data.id,
      username,
      nickname: 'Reggie',
      email: null,
      mobile: '+8613800138000',
    });
    expect(dashboard.body.data.credential.status).toBe('none');
    expect(dashboard.body.data.scopes).toEqual([]);

    const fresh = await csrfOf(client);
    expect(fresh).not.toBe(token);
    await expectRefusal(() => client.post(LOGOUT).set('X-CSRF-Token', token).send({}), 419, 'csrf_token_invalid');
  });

  it('hands out distinct increasing integer ids', async () => {
    const a = await registerMember(t.client());
    const b = await registerMember(t.client());
    expect(b.id).toBeGreaterThan(a.id);
  });

  it('refuses a missing CSRF token with 419', async () => {
    const client = t.client();
    await csrfOf(client);
    await expectRefusal(
      () => client.post(REGISTER).send({ username: uniqueUsername(), password: 'secret1', email: 'a@example.com' }),
      419,
      'csrf_token_missing',
    );
  });

  it("refuses another session's token and a request with no session at all with 419", async () => {
    const other = await csrfOf(t.client());
    const client = t.client();
    await csrfOf(client);
    const body = { username: uniqueUsername(), password: 'secret1', email: 'a@example.com' };
    await expectRefusal(() => client.post(REGISTER).set('X-CSRF-Token', other).send(body), 419, 'csrf_token_invalid');
    await expectRefusal(
      () => t.client().post(REGISTER).set('X-CSRF-Token', other).send(body),
      419,
      'csrf_token_invalid',
    );
  });

  describe('refuses each broken registration rule with 422 and names the field', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a password under 6 characters', { password: '12345' }, 'password'],
      ['neither email nor mobile', { email: undefined }, 'email'],
      ['a malformed email', { email: 'nope' }, 'email'],
      ['a malformed mobile', { email: undefined, mobile: 'call me' }, 'mobile'],
      ['a malformed username', { username: 'a b' }, 'username'],
      ['a missing username', { username: undefined }, 'username'],
      ['a password that is not a string', { password: 123456 }, 'password'],
      ['an unknown field', { role: 'admin' }, '(body)'],
      ['a nickname with an escape sequence', { nickname: 'Nick\u001b[31mRED' }, 'nickname'],
      ['a nickname with a terminal title sequence', { nickname: '\u001b]0;pwned\u0007Nick' }, 'nickname'],
      ['a nickname with a line break', { nickname: 'Nick\napproved' }, 'nickname'],
      ['a nickname with a NUL', { nickname: 'Nick\u0000' }, 'nickname'],
      ['a nickname with a C1 control', { nickname: 'Nick\u009b31m' }, 'nickname'],
      ['a nickname with a bidirectional override', { nickname: 'Nick\u202egnp.exe' }, 'nickname'],
      ['a nickname with a zero-width space', { nickname: 'Ni\u200bck' }, 'nickname'],
      ['a nickname with a line separator', { nickname: 'Nick\u2028x' }, 'nickname'],
    ];
    it.each(cases)('%s', async (_name, change, field) => {
      const client = t.client();
      const token = await csrfOf(client);
      const body = { username: uniqueUsername(), password: 'secret1', email: 'a@example.com', ...change };
      const res = await expectRefusal(
        () => client.post(REGISTER).set('X-CSRF-Token', token).send(body),
        422,
        'validation_failed',
      );
      expect(res.body.data.issues).toContainEqual({ path: field, message: expect.any(String) });
    });
  });

  it('lists every failing field in data.issues', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const res = await client
      .post(REGISTER)
      .set('X-CSRF-Token', token)
      .send({ username: 'x', password: '1' })
      .expect(422);
    expect(res.body.data.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'password', 'username']);
  });

  it('refuses a username taken in another letter case with 422 username_taken', async () => {
    const username = uniqueUsername('Case');
    await registerMember(t.client(), { username });
    const client = t.client();
    const token = await csrfOf(client);
    await expectRefusal(
      () =>
        client
          .post(REGISTER)
          .set('X-CSRF-Token', token)
          .send({ username: username.toUpperCase(), password: 'secret1', email: 'b@example.com' }),
      422,
      'username_taken',
    );
  });

  it('refuses malformed JSON with 422', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const res = await expectRefusal(
      () =>
        client.post(REGISTER).set('X-CSRF-Token', token).set('Content-Type', 'application/json').send('{"username":'),
      422,
      'malformed_json',
    );
    expect(res.body.message).toContain('not valid JSON');
  });

  it('refuses a JSON body that is not an object with 422', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    for (const body of ['"alice"', '123', 'null']) {
      const res = await expectRefusal(
        () => client.post(REGISTER).set('X-CSRF-Token', token).set('Content-Type', 'application/json').send(body),
        422,
        'malformed_json',
      );
      // Valid JSON, but not an object: the message does not call it invalid.
      expect(res.body.message).toBe(
        'the request body is a JSON string, number, boolean or null: send a JSON object, {} at least',
      );
    }
    const array = await expectRefusal(
      () => client.post(REGISTER).set('X-CSRF-Token', token).send([1, 2]),
      422,
      'validation_failed',
    );
    expect(array.body.message).toBe('the request body must be a JSON object, {} at least');
  });

  it('refuses a body with a prototype-polluting key, and a body that does not decompress, with 422', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const polluting = '{"__proto__":{"admin":true},"username":"proto1","password":"secret1","email":"a@example.com"}';
    const refused = await expectRefusal(
      () => client.post(REGISTER).set('X-CSRF-Token', token).set('Content-Type', 'application/json').send(polluting),
      422,
      'forbidden_key',
    );
    // Said for what it is: valid JSON with a key no endpoint accepts.
    expect(refused.body.message).toContain('__proto__');
    expect(refused.body.message).not.toMatch(/not valid JSON/);
    await expectRefusal(
      () =>
        client
          .post(REGISTER)
          .set('X-CSRF-Token', token)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip')
          .send('not gzip at all'),
      422,
      'malformed_body',
    );
    await expectRefusal(
      () =>
        client
          .post(REGISTER)
          .set('X-CSRF-Token', token)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'br')
          .send('not brotli at all'),
      422,
      'malformed_body',
    );
  });

  it('refuses a form-encoded body with 415', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    await expectRefusal(
      () => client.post(REGISTER).set('X-CSRF-Token', token).type('form').send('username=alice&password=secret1'),
      415,
      'unsupported_media_type',
    );
  });

  it('refuses an oversized body with 413', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const body = {
      username: uniqueUsername(),
      password: 'secret1',
      email: 'a@example.com',
      nickname: 'x'.repeat(70_000),
    };
    await expectRefusal(() => client.post(REGISTER).set('X-CSRF-Token', token).send(body), 413, 'payload_too_large');
  });

  it('keeps only an Argon2id hash: the clear password is in no event and no log line', async () => {
    const password = 'correct horse battery staple';
    const member = await registerMember(t.client(), { password });
    const events = JSON.stringify(await t.allEvents());
    expect(events).not.toContain(password);
    expect(events).toContain('$argon2id$v=19$m=19456,p=1,t=2$');
    expect(t.logLines.join('\n')).not.toContain(password);
    expect(member.id).toBeGreaterThan(0);
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
    const token = await csrfOf(client);
    const wrong = await expectRefusal(
      () =>
        client.post(LOGIN).set('X-CSRF-Token', token).send({ username: member.username, password: 'wrong-password' }),
      401,
      'invalid_credentials',
    );
    const unknown = await expectRefusal(
      () =>
        client
          .post(LOGIN)
          .set('X-CSRF-Token', token)
          .send({ username: uniqueUsername('ghost'), password: 'secret1' }),
      401,
      'invalid_credentials',
    );
    expect(unknown.body).toEqual(wrong.body);
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

describe('the envelope for everything else', () => {
  it('answers an unknown route with 404 in the envelope', async () => {
    await expectRefusal(() => t.client().get('/api/v1/developer/nothing-here'), 404, 'not_found');
  });

  it('answers a wrong method with 405 and the allowed ones', async () => {
    const res = await expectRefusal(() => t.client().delete('/api/v1/developer/session'), 405, 'method_not_allowed');
    expect(res.headers['allow']).toContain('GET');
  });

  it('answers OPTIONS and methods the service does not implement (TRACE) in the envelope: 405 on a known path, 404 elsewhere', async () => {
    const options = await expectRefusal(
      () => t.client().options('/api/v1/developer/session'),
      405,
      'method_not_allowed',
    );
    expect(options.headers['allow']).toBe('HEAD, GET');
    const trace = await expectRefusal(() => t.client().trace('/api/v1/developer/register'), 405, 'method_not_allowed');
    expect(trace.headers['allow']).toBe('POST');
    await expectRefusal(() => t.client().trace('/api/v1/developer/nothing-here'), 404, 'not_found');
  });

  it("answers its own request id, whatever the client sent, and logs the client's beside it", async () => {
    const first = await t.client().get('/api/v1/developer/session').set('X-Request-Id', 'trace-me-123').expect(200);
    const second = await t.client().get('/api/v1/developer/session').set('X-Request-Id', 'trace-me-123').expect(200);
    const ids = [first.headers['x-request-id'], second.headers['x-request-id']];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    const lines = t.logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.client_request_id === 'trace-me-123' && l.msg === 'request');
    expect(lines).toEqual(
      ids.map((id) =>
        expect.objectContaining({ request_id: id, method: 'GET', path: '/api/v1/developer/session', status: 200 }),
      ),
    );
  });

  it("stores its own request id in the events, not the client's", async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const res = await client
      .post('/api/v1/developer/register')
      .set('X-CSRF-Token', token)
      .set('X-Request-Id', 'shared-by-everyone')
      .send({ username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' })
      .expect(200);
    const events = (await t.allEvents()).filter((e) => e.metadata.request_id === res.headers['x-request-id']);
    expect(events.map((e) => e.type)).toContain('MemberRegistered');
    expect((await t.allEvents()).filter((e) => e.metadata.request_id === 'shared-by-everyone')).toEqual([]);
  });

  it('answers /livez and /readyz to anyone with a status and nothing else', async () => {
    expect((await t.client().get('/api/v1/livez').expect(200)).body).toEqual({
      code: 0,
      message: expect.any(String),
      data: { status: 'ok' },
    });
    expect((await t.client().get('/api/v1/readyz').expect(200)).body).toEqual({
      code: 0,
      message: expect.any(String),
      data: { status: 'ready' },
    });
  });

  it('keeps the detailed GET /health for administrators: no path or store error for anyone else', async () => {
    const anonymous = await expectRefusal(() => t.client().get('/api/v1/health'), 401, 'admin_not_logged_in');
    expect(JSON.stringify(anonymous.body)).not.toContain(t.dataDir);
    const member = t.client();
    await registerMember(member);
    await expectRefusal(() => member.get('/api/v1/health'), 401, 'admin_not_logged_in');
    const admin = t.client();
    await logInAdmin(admin);
    const res = await admin.get('/api/v1/health').expect(200);
    expect(res.body.data).toEqual({
      status: 'ok',
      stores: [expect.objectContaining({ name: 'sqlite', ok: true })],
      projections: expect.objectContaining({ status: 'running' }),
      key_ring: 'following',
      dead_letters: { count: 0, latest: null },
    });
  });
});
