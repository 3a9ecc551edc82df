import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { csrfOf, logInAdmin, registerMember, sessionCookie, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';
const IDLE_MS = 6_000;
const ANONYMOUS_MS = 3_000;

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ SESSION_IDLE_MINUTES: IDLE_MS / 60_000, SESSION_ANONYMOUS_MINUTES: ANONYMOUS_MS / 60_000 });
});
afterAll(() => t.close());

function cookieExpiry(res: { headers: Record<string, unknown> }): number {
  const cookie = sessionCookie(res);
  const expires = /expires=([^;]+)/i.exec(cookie ?? '')?.[1];
  if (!expires) throw new Error(`no session cookie with an expiry: ${cookie}`);
  return Date.parse(expires);
}

describe('a session used within the idle limit', () => {
  it('stays alive in the server and in the browser, and ends once left idle past the limit', async () => {
    const client = t.client();
    await registerMember(client);
    // Used at 40% of the limit: a renewal only once half the lifetime is gone would not happen here.
    await sleep(IDLE_MS * 0.4);
    const used = await client.get(`${API}/developer/dashboard`).expect(200);
    // The browser's copy moves with the use, and outlives the server's row so that the request
    // after the idle limit still names the session and is told it expired.
    expect(cookieExpiry(used)).toBeGreaterThan(Date.now() + IDLE_MS - 2_000);
    // Past the limit counted from sign-in, within it counted from the last use.
    await sleep(IDLE_MS * 0.75);
    await client.get(`${API}/developer/dashboard`).expect(200);
    await sleep(IDLE_MS + 500);
    const expired = await client.get(`${API}/developer/dashboard`).expect(401);
    expect(expired.body.data.error).toBe('session_expired');
  });

  it('a cookie naming a session the store never held or no longer holds says it expired; no cookie says log in', async () => {
    const gone = await t.client().get(`${API}/developer/dashboard`).set('Cookie', 'PHPSESSID=gone').expect(401);
    expect(gone.body.data.error).toBe('session_expired');
    const admin = await t.client().get(`${API}/credentials`).set('Cookie', 'PHPSESSID=gone').expect(401);
    expect(admin.body.data.error).toBe('session_expired');
    const none = await t.client().get(`${API}/developer/dashboard`).expect(401);
    expect(none.body.data.error).toBe('not_logged_in');
  });

  it('a write on an expired session is told it expired, not sent to fetch a CSRF token that cannot help', async () => {
    const member = t.client();
    const { token } = await registerMember(member);
    const admin = t.client();
    const adminToken = await logInAdmin(admin);
    await sleep(IDLE_MS + 500);
    const apply = await member.post(`${API}/developer/credential`).set('X-CSRF-Token', token).send({}).expect(401);
    expect(apply.body.data.error).toBe('session_expired');
    const approve = await admin
      .post(`${API}/credentials/1/approve`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(401);
    expect(approve.body.data.error).toBe('session_expired');
    // Registration and login need no session identity: a stale token there is still 419.
    const register = await t
      .client()
      .post(`${API}/developer/register`)
      .set('Cookie', 'PHPSESSID=gone')
      .set('X-CSRF-Token', token)
      .send({ username: 'late_comer', password: 'secret1' })
      .expect(419);
    expect(register.body.data.error).toBe('csrf_token_invalid');
  });
});

describe('a session that never signs in', () => {
  it('is kept for the shorter anonymous limit only', async () => {
    const client = t.client();
    const first = await csrfOf(client);
    const db = new BetterSqlite3(join(t.dataDir, 'platform.db'), { readonly: true });
    try {
      const latest = db.prepare<[], { expires_at: number }>('SELECT max(expires_at) AS expires_at FROM sessions').get();
      expect(latest?.expires_at).toBeLessThanOrEqual(Date.now() + ANONYMOUS_MS);
    } finally {
      db.close();
    }
    await sleep(ANONYMOUS_MS + 500);
    expect(await csrfOf(client)).not.toBe(first);
  });
});
