import { activePartner, mistypedKey, openCall } from '../../support/credentials';
import { csrfOf, registerMember, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';
import { standingsOf } from '../../support/rate-limit-fields';

/**
 * The rate-limit fields of draft-ietf-httpapi-ratelimit-headers-10 (RateLimit-Policy and
 * RateLimit), parsed by an implementation of Structured Field Values (RFC 9651) the project did not
 * write: on every answer a limit counted, refusals included, each limit that counted it named.
 */
const MAX_FAILURES = 3;
const ADDRESS_FAILURES = 10;
const REGISTRATIONS = 5;
const RESET_REQUESTS = 4;
const MEMBER_WRITES = 50;
const CREDENTIAL_FAILURES = 30;

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({
    LOGIN_MAX_FAILURES: MAX_FAILURES,
    LOGIN_ADDRESS_MAX_FAILURES: ADDRESS_FAILURES,
    REGISTRATION_LIMIT: REGISTRATIONS,
    PASSWORD_RESET_ADDRESS_LIMIT: RESET_REQUESTS,
    MEMBER_WRITE_LIMIT: MEMBER_WRITES,
    OPEN_API_CREDENTIAL_FAILURE_LIMIT: CREDENTIAL_FAILURES,
  });
});
afterAll(() => t.close());

describe('the open API', () => {
  it("tells the API id's limit in the draft's syntax on a counted call, and on a 401 the client address's refused calls instead", async () => {
    const partner = await activePartner(t);
    const res = await openCall(t, '/open/addons', partner.apiid, partner.apikey).expect(200);
    expect(standingsOf(res)).toEqual({ 'open-api': { q: 6000, w: 60, r: 5999 } });
    const wrong = await openCall(t, '/open/addons', partner.apiid, mistypedKey(partner.apikey)).expect(401);
    expect(standingsOf(wrong)).toEqual({
      'open-api-credential-failures': { q: CREDENTIAL_FAILURES, w: 60, r: CREDENTIAL_FAILURES - 1 },
    });
  });
});

describe('a member login', () => {
  it('tells both login limits on a wrong password (401), on the 429 past them, and gives them back on a success', async () => {
    const client = t.client();
    const member = await registerMember(t.client());
    // The token first: the agent sends the cookies it holds when the request is made.
    const token = await csrfOf(client);
    const logIn = (password: string) =>
      client.post('/api/v1/developer/login').set('X-CSRF-Token', token).send({ username: member.username, password });

    for (let failure = 1; failure <= MAX_FAILURES; failure++) {
      const wrong = await logIn('not-the-password');
      expect(wrong.status).toBe(401);
      expect(standingsOf(wrong)).toEqual({
        'login-member': { q: MAX_FAILURES, w: 900, r: MAX_FAILURES - failure },
        'login-member-address': { q: ADDRESS_FAILURES, w: 900, r: ADDRESS_FAILURES - failure },
      });
      expect(wrong.headers['ratelimit-remaining']).toBe(String(MAX_FAILURES - failure));
    }
    const blocked = await logIn(member.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.data.error).toBe('too_many_login_failures');
    expect(standingsOf(blocked)['login-member']).toMatchObject({ r: 0 });

    const elsewhere = t.client();
    const other = await registerMember(t.client());
    const elsewhereToken = await csrfOf(elsewhere);
    const right = await elsewhere
      .post('/api/v1/developer/login')
      .set('X-CSRF-Token', elsewhereToken)
      .send({ username: other.username, password: other.password })
      .expect(200);
    // The username's failures cleared, the address's attempt given back: the three failures above remain.
    expect(standingsOf(right)).toEqual({
      'login-member': { q: MAX_FAILURES, w: 900, r: MAX_FAILURES },
      'login-member-address': { q: ADDRESS_FAILURES, w: 900, r: ADDRESS_FAILURES - MAX_FAILURES },
    });
  });

  it('tells nothing on a request no limit counted: a wrong CSRF token (419)', async () => {
    const client = t.client();
    await csrfOf(client);
    const res = await client
      .post('/api/v1/developer/login')
      .set('X-CSRF-Token', 'not-the-token')
      .send({ username: 'someone', password: 'secret1' });
    expect(res.status).toBe(419);
    expect(res.headers).not.toHaveProperty('ratelimit');
  });
});

describe("a member's password change and e-mail change", () => {
  it("tell the wrong current passwords' limit beside the member's writes, on the 422 and after a success", async () => {
    const client = t.client();
    const member = await registerMember(client);
    const change = (current_password: string) =>
      client
        .post('/api/v1/developer/password')
        .set('X-CSRF-Token', member.token)
        .send({ current_password, new_password: current_password });
    const wrong = await change('not-the-password');
    expect(wrong.status).toBe(422);
    expect(wrong.body.data.error).toBe('wrong_current_password');
    expect(standingsOf(wrong)).toEqual({
      'member-write': { q: MEMBER_WRITES, w: 60, r: MEMBER_WRITES - 1 },
      'password-change': { q: MAX_FAILURES, w: 900, r: MAX_FAILURES - 1 },
    });
    // A success clears the wrong ones: the whole quota again.
    const right = await change(member.password);
    expect(right.status).toBe(200);
    expect(standingsOf(right)['password-change']).toEqual({ q: MAX_FAILURES, w: 900, r: MAX_FAILURES });
  });

  it("tell the day's e-mail address changes once the current password was right", async () => {
    const client = t.client();
    const member = await registerMember(client);
    const res = await client
      .put('/api/v1/developer/account')
      .set('X-CSRF-Token', member.token)
      .send({ email: 'elsewhere@example.com', current_password: member.password });
    // Counted whatever follows: this service sends no mail, so the address cannot be confirmed.
    expect(res.status).toBe(422);
    expect(res.body.data.error).toBe('mail_not_configured');
    expect(standingsOf(res)).toEqual({
      'member-write': { q: MEMBER_WRITES, w: 60, r: MEMBER_WRITES - 1 },
      'password-change': { q: MAX_FAILURES, w: 900, r: MAX_FAILURES },
      'email-change': { q: 3, w: 86_400, r: 2 },
    });
  });
});

describe('the per-address limits', () => {
  it('tell a registration where the address stands, up to the 429', async () => {
    // registerMember's own registrations above came from this address too: read where it stands.
    const client = t.client();
    const register = async () => {
      const token = await csrfOf(client);
      return client
        .post('/api/v1/developer/register')
        .set('X-CSRF-Token', token)
        .send({ username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' });
    };
    let res = await register();
    while (res.status === 200) {
      const { registration } = standingsOf(res);
      expect(registration).toMatchObject({ q: REGISTRATIONS, w: 3600 });
      res = await register();
    }
    expect(res.status).toBe(429);
    expect(res.body.data.error).toBe('too_many_registrations');
    expect(standingsOf(res)).toEqual({ registration: { q: REGISTRATIONS, w: 3600, r: 0 } });
  });

  it('tell a password-reset request where the address stands, up to the 429', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const ask = () =>
      client.post('/api/v1/developer/password-reset').set('X-CSRF-Token', token).send({ login: 'nobody' });
    for (let left = RESET_REQUESTS - 1; left >= 0; left--) {
      const res = await ask();
      expect(res.status).toBe(200);
      expect(standingsOf(res)).toEqual({
        'password-reset-address': { q: RESET_REQUESTS, w: 3600, r: left },
      });
    }
    const over = await ask();
    expect(over.status).toBe(429);
    expect(standingsOf(over)).toEqual({ 'password-reset-address': { q: RESET_REQUESTS, w: 3600, r: 0 } });
  });
});
