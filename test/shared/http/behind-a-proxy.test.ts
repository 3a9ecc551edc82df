import { csrfOf, registerMember, sessionCookie, startPlatform, TestPlatform } from '../../support/platform';

/**
 * Deployed behind a TLS-terminating reverse proxy: COOKIE_SECURE marks the session cookie Secure
 * although the connection the service sees is plain HTTP, and TRUST_PROXY takes the client
 * address from the X-Forwarded-For entry the proxy appended, so that the login limit is per client.
 */

const API = '/api/v1';
const MAX_FAILURES = 2;

describe('COOKIE_SECURE=true', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startPlatform({ COOKIE_SECURE: true });
  });
  afterAll(() => t.close());

  it('sets PHPSESSID Secure over the plain HTTP the proxy forwards, and the session holds', async () => {
    const first = await t.client().get(`${API}/developer/session`).expect(200);
    const cookie = sessionCookie(first) ?? '';
    expect(cookie.split('; ')).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
    // A browser sends a Secure cookie back only over HTTPS; supertest's jar would not, so send it by hand.
    const again = await t
      .client()
      .get(`${API}/developer/session`)
      .set('Cookie', cookie.split(';')[0] ?? '')
      .expect(200);
    expect(again.body.data.csrf_token).toBe(first.body.data.csrf_token);
  });
});

describe('the client address for the login limit', () => {
  async function failuresThenRightPassword(t: TestPlatform, from: string, then: string) {
    const member = await registerMember(t.client());
    const client = t.client();
    const token = await csrfOf(client);
    const login = (password: string, address: string) =>
      client
        .post(`${API}/developer/login`)
        .set('X-CSRF-Token', token)
        .set('X-Forwarded-For', `198.51.100.1, ${address}`)
        .send({ username: member.username, password });
    for (let i = 0; i < MAX_FAILURES; i++) await login('wrong-password', from).expect(401);
    return login(member.password, then);
  }

  it('with TRUST_PROXY=true, is the last X-Forwarded-For entry: another client of the proxy is not blocked', async () => {
    const t = await startPlatform({ TRUST_PROXY: true, LOGIN_MAX_FAILURES: MAX_FAILURES });
    try {
      expect((await failuresThenRightPassword(t, '203.0.113.7', '203.0.113.7')).status).toBe(429);
      expect((await failuresThenRightPassword(t, '203.0.113.7', '203.0.113.8')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('by default, is the peer: X-Forwarded-For, which any client can send, changes nothing', async () => {
    const t = await startPlatform({ LOGIN_MAX_FAILURES: MAX_FAILURES });
    try {
      expect((await failuresThenRightPassword(t, '203.0.113.7', '203.0.113.8')).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});
