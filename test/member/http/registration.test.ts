import { csrfOf, registerMember, sessionCookie, uniqueUsername } from '../../support/platform';
import { expectRefusal, t, useFilePlatform } from '../../support/file-platform';

useFilePlatform();

const REGISTER = '/api/v1/developer/register';
const LOGOUT = '/api/v1/developer/logout';
const DASHBOARD = '/api/v1/developer/dashboard';

/** A signed-out visitor's POST of raw bytes as JSON to the registration, with its CSRF token: for bodies it must refuse. */
async function rawRegistration() {
  const client = t.client();
  const token = await csrfOf(client);
  return (body: string, headers: Record<string, string> = {}) =>
    client
      .post(REGISTER)
      .set({ 'X-CSRF-Token': token, 'Content-Type': 'application/json', ...headers })
      .send(body);
}

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

  it('refuses a username taken in another letter case with 422 username_taken, naming the field', async () => {
    const username = uniqueUsername('Case');
    await registerMember(t.client(), { username });
    const client = t.client();
    const token = await csrfOf(client);
    const res = await expectRefusal(
      () =>
        client
          .post(REGISTER)
          .set('X-CSRF-Token', token)
          .send({ username: username.toUpperCase(), password: 'secret1', email: 'b@example.com' }),
      422,
      'username_taken',
    );
    expect(res.body.data.issues).toEqual([
      { path: 'username', message: expect.stringContaining('already registered') },
    ]);
  });

  it('refuses malformed JSON with 422', async () => {
    const post = await rawRegistration();
    const res = await expectRefusal(() => post('{"username":'), 422, 'malformed_json');
    expect(res.body.message).toContain('not valid JSON');
  });

  it('refuses a JSON body that is not an object with 422', async () => {
    const post = await rawRegistration();
    for (const body of ['"alice"', '123', 'null']) {
      const res = await expectRefusal(() => post(body), 422, 'malformed_json');
      // Valid JSON, but not an object: the message does not call it invalid.
      expect(res.body.message).toBe(
        'the request body is a JSON string, number, boolean or null: send a JSON object, {} at least',
      );
    }
    const array = await expectRefusal(() => post('[1,2]'), 422, 'validation_failed');
    expect(array.body.message).toBe('the request body must be a JSON object, {} at least');
  });

  it('refuses a body with a prototype-polluting key, and a body that does not decompress, with 422', async () => {
    const post = await rawRegistration();
    const polluting = '{"__proto__":{"admin":true},"username":"proto1","password":"secret1","email":"a@example.com"}';
    const refused = await expectRefusal(() => post(polluting), 422, 'forbidden_key');
    // Said for what it is: valid JSON with a key no endpoint accepts.
    expect(refused.body.message).toContain('__proto__');
    expect(refused.body.message).not.toMatch(/not valid JSON/);
    await expectRefusal(() => post('not gzip at all', { 'Content-Encoding': 'gzip' }), 422, 'malformed_body');
    await expectRefusal(() => post('not brotli at all', { 'Content-Encoding': 'br' }), 422, 'malformed_body');
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
