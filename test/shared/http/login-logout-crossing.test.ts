import request from 'supertest';
import { countingSessionLoads, currentCookie, HeldAnswer, holdPost } from '../../support/held-request';
import {
  ADMIN_PASSWORD,
  csrfOf,
  logIn,
  logInAdmin,
  registerMember,
  startPlatform,
  TestPlatform,
  uniqueUsername,
} from '../../support/platform';

const API = '/api/v1';
const TRIES = 5;
const ADMIN = { username: 'admin', password: ADMIN_PASSWORD };

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({}, undefined, countingSessionLoads);
});
afterAll(() => t.close());

/** Which identities the session a cookie names holds, as a browser presenting it is told. */
async function identitiesOf(cookie: string | undefined): Promise<{ member: boolean; admin: boolean }> {
  if (!cookie) throw new Error('the answer set no session cookie');
  const member = await t.client().get(`${API}/developer/dashboard`).set('Cookie', cookie);
  const admin = await t.client().get(`${API}/credentials`).set('Cookie', cookie);
  return { member: member.status === 200, admin: admin.status === 200 };
}

/** A session holding the identities asked for: its client, its cookie and its token. */
async function sessionWith(identities: { member: boolean; admin: boolean }) {
  const client = t.client();
  const member = identities.member ? await registerMember(client) : null;
  if (identities.admin) await logInAdmin(client);
  return { client, member, cookie: await currentCookie(client), token: await csrfOf(client) };
}

/** Holds `path` open on the session past the logout of `side`, then lets it finish. */
async function acrossLogout(
  session: { client: request.Agent; cookie: string; token: string },
  path: string,
  body: unknown,
  side: 'developer' | 'admin',
): Promise<HeldAnswer> {
  const held = await holdPost(t.server, `${API}${path}`, session.cookie, session.token, body);
  await session.client.post(`${API}/${side}/logout`).set('X-CSRF-Token', session.token).send({}).expect(200);
  const answer = await held.finish();
  expect(answer.status).toBe(200);
  return answer;
}

describe('a login or registration in flight across the logout of the other identity', () => {
  it(`a member login does not carry the administrator logged out meanwhile (${TRIES} tries)`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const session = await sessionWith({ member: true, admin: true });
      const login = await acrossLogout(
        session,
        '/developer/login',
        { username: session.member?.username, password: 'secret1' },
        'admin',
      );
      expect(await identitiesOf(login.cookie)).toEqual({ member: true, admin: false });
      expect(await identitiesOf(await currentCookie(session.client))).toEqual({ member: true, admin: false });
    }
  });

  it(`a registration does not carry the administrator logged out meanwhile (${TRIES} tries)`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const session = await sessionWith({ member: false, admin: true });
      const registration = { username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' };
      const registered = await acrossLogout(session, '/developer/register', registration, 'admin');
      expect(await identitiesOf(registered.cookie)).toEqual({ member: true, admin: false });
    }
  });

  it(`an administrator login does not carry the member who registered and logged out meanwhile (${TRIES} tries)`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const session = await sessionWith({ member: true, admin: false });
      const login = await acrossLogout(session, '/admin/login', ADMIN, 'developer');
      expect(await identitiesOf(login.cookie)).toEqual({ member: false, admin: true });
      expect(await identitiesOf(await currentCookie(session.client))).toEqual({ member: false, admin: false });
    }
  });

  it(`an administrator login does not carry the member who logged in and out meanwhile (${TRIES} tries)`, async () => {
    const { username } = await registerMember(t.client());
    for (let i = 0; i < TRIES; i++) {
      const client = t.client();
      await logIn(client, { username, password: 'secret1' });
      const session = { client, cookie: await currentCookie(client), token: await csrfOf(client) };
      const login = await acrossLogout(session, '/admin/login', ADMIN, 'developer');
      expect(await identitiesOf(login.cookie)).toEqual({ member: false, admin: true });
    }
  });
});

describe('a logout in flight across a login of the other identity', () => {
  it.each([
    ['the administrator', 'admin'],
    ['the member', 'developer'],
  ] as const)(`ends %s in the session the login made (${TRIES} tries)`, async (_who, side) => {
    for (let i = 0; i < TRIES; i++) {
      const session = await sessionWith({ member: true, admin: true });
      const logout = await holdPost(t.server, `${API}/${side}/logout`, session.cookie, session.token);
      // The other side logs in again meanwhile: the session moves to a new id before the logout commits.
      if (side === 'admin')
        await logIn(session.client, { username: session.member?.username ?? '', password: 'secret1' });
      else await logInAdmin(session.client);
      const loggedOut = await logout.finish();
      expect(loggedOut.status).toBe(200);
      const stayed = side === 'admin' ? { member: true, admin: false } : { member: false, admin: true };
      expect(await identitiesOf(await currentCookie(session.client))).toEqual(stayed);
      expect(await identitiesOf(loggedOut.cookie)).toEqual({ member: false, admin: false });
    }
  });
});
