import request from 'supertest';
import { logInAdmin, registerMember, sessionCookie, startPlatform, TestPlatform } from '../../support/platform';
import { codeAt, enrolTotp, passwordSignIn, secondFactor } from '../../support/totp';

/**
 * Session fixation: a session id an attacker planted before the sign-in (or saw while it awaited
 * its second factor) must not be signed in afterwards. Each step is replayed with the old cookie
 * alone, from a client that holds nothing else.
 */
let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

const DASHBOARD = '/api/v1/developer/dashboard';

/** The session cookie the client holds now, as a `Cookie` header. */
async function plantedCookie(client: request.Agent, realm: 'developer' | 'admin'): Promise<string> {
  const res = await client.get(`/api/v1/${realm}/session`).expect(200);
  return sessionCookie(res)!.split(';')[0]!;
}

const withCookie = (cookie: string, path: string) => request(t.server).get(path).set('Cookie', cookie);

it("a member's password sign-in leaves the planted session id signed out", async () => {
  const member = await registerMember(t.client());
  const victim = t.client();
  const planted = await plantedCookie(victim, 'developer');
  expect((await passwordSignIn(victim, '/developer', member)).status).toBe(200);
  await victim.get(DASHBOARD).expect(200);
  expect((await withCookie(planted, DASHBOARD)).status).toBe(401);
});

it('neither the planted id nor the pending one is signed in once the second factor completes', async () => {
  const owner = t.client();
  const member = await registerMember(owner);
  const { secret } = await enrolTotp(owner, '/developer');
  const victim = t.client();
  const planted = await plantedCookie(victim, 'developer');
  const pending = await passwordSignIn(victim, '/developer', member);
  expect(pending.body.data.second_factor_required).toBe(true);
  const pendingCookie = sessionCookie(pending)!.split(';')[0]!;
  expect(pendingCookie).not.toBe(planted);
  expect((await secondFactor(victim, '/developer', { code: await codeAt(secret) })).status).toBe(200);
  await victim.get(DASHBOARD).expect(200);
  for (const cookie of [planted, pendingCookie]) expect((await withCookie(cookie, DASHBOARD)).status).toBe(401);
});

it("an administrator's sign-in leaves the planted session id signed out", async () => {
  const victim = t.client();
  const planted = await plantedCookie(victim, 'admin');
  await logInAdmin(victim);
  await victim.get('/api/v1/administrators').expect(200);
  expect((await withCookie(planted, '/api/v1/administrators')).status).toBe(401);
});
