import request from 'supertest';
import { createAdmin } from '../../../src/access/admins';
import { CommandContext } from '../../../src/shared/commands/context';
import { setRoleGroupEnabled } from '../../../src/access/groups';
import { argon2Hasher } from '../../../src/member/passwords';
import {
  ADMIN_PASSWORD,
  Answer,
  csrfOf,
  expectLoginRefusedAlike,
  expectRefusal as refusal,
  logInAdmin,
  registerMember,
  sessionCookie,
  startPlatform,
  TestPlatform,
  uniqueUsername,
} from '../../support/platform';
import { SHELL } from '../../../src/access/grantor';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

const SESSION = '/api/v1/admin/session';
const LOGIN = '/api/v1/admin/login';
const LOGOUT = '/api/v1/admin/logout';
const MEMBER_LOGIN = '/api/v1/developer/login';
const MEMBER_LOGOUT = '/api/v1/developer/logout';
const DASHBOARD = '/api/v1/developer/dashboard';
const CREDENTIALS = '/api/v1/credentials';

const SUPER = { username: 'admin', password: ADMIN_PASSWORD };

const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

/** The session id a response sets, without the cookie's attributes. */
const sessionId = (res: { headers: Record<string, unknown> }) => sessionCookie(res)?.split(';')[0];

/** What a CLI-created administrator is created under: the CLI, outside any HTTP request. */
const cli = (): CommandContext => ({ actor: { kind: 'cli', id: 'test' }, requestId: 'test', now: new Date() });

async function adminInRoleGroup(role_id: number) {
  const admin = { username: uniqueUsername('op'), password: 'role-secret', is_super: false, role_id };
  const created = await createAdmin(t.platform.stores.events, argon2Hasher(), admin, SHELL, cli());
  return { ...admin, id: created.id };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The permission check reads the role-group read model, which follows the log asynchronously. */
async function untilStatus(
  send: () => PromiseLike<{ status: number }>,
  status: number,
  withinMs = 2000,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while ((await send()).status !== status && Date.now() < deadline) await sleep(20);
}

describe('GET /admin/session', () => {
  it('returns a CSRF token and sets the PHPSESSID cookie, one session with the developer side', async () => {
    const client = t.client();
    const res = await client.get(SESSION).expect(200);
    expect(res.body).toEqual({
      code: 0,
      message: 'ok',
      data: { csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
    expect(sessionId(res)).toBeDefined();
    expect(await csrfOf(client)).toBe(res.body.data.csrf_token);
  });
});

describe('POST /admin/login', () => {
  it('logs the seeded super administrator in under a new session id and rotates the token', async () => {
    const client = t.client();
    const before = await client.get(SESSION).expect(200);
    const token = before.body.data.csrf_token as string;
    const res = await client.post(LOGIN).set('X-CSRF-Token', token).send(SUPER).expect(200);
    expect(res.body).toEqual({
      code: 0,
      message: expect.any(String),
      data: {
        id: expect.any(Number),
        username: 'admin',
        is_super: true,
        role_id: null,
        password_change_required: false,
        second_factor_required: false,
        second_factor_enrolment_required: false,
      },
    });
    expect(sessionId(res)).toBeDefined();
    expect(sessionId(res)).not.toBe(sessionId(before));

    const fresh = await csrfOf(client);
    expect(fresh).not.toBe(token);
    await expectRefusal(() => client.post(LOGOUT).set('X-CSRF-Token', token).send({}), 419, 'csrf_token_invalid');
    await client.get(CREDENTIALS).expect(200);
  });

  it('refuses a wrong password and an unknown username alike with 401 invalid_credentials', async () => {
    const client = t.client();
    await expectLoginRefusedAlike(t, client, LOGIN, { username: 'admin', password: ADMIN_PASSWORD });
    await expectRefusal(() => client.get(CREDENTIALS), 401, 'admin_not_logged_in');
  });

  it("refuses the administrator's credentials on the member login with 401: administrators are not members", async () => {
    const client = t.client();
    const token = await csrfOf(client);
    await expectRefusal(
      () => client.post(MEMBER_LOGIN).set('X-CSRF-Token', token).send(SUPER),
      401,
      'invalid_credentials',
    );
    await expectRefusal(() => client.get(DASHBOARD), 401, 'not_logged_in');
    await expectRefusal(() => client.get(CREDENTIALS), 401, 'admin_not_logged_in');
  });

  it("refuses a member's credentials on the administrator login with 401", async () => {
    const member = await registerMember(t.client());
    const client = t.client();
    const token = await csrfOf(client);
    await expectRefusal(
      () =>
        client.post(LOGIN).set('X-CSRF-Token', token).send({ username: member.username, password: member.password }),
      401,
      'invalid_credentials',
    );
    await expectRefusal(() => client.get(CREDENTIALS), 401, 'admin_not_logged_in');
    await expectRefusal(() => client.get(DASHBOARD), 401, 'not_logged_in');
  });
});

describe('a session holding a member and an administrator', () => {
  async function both(): Promise<request.Agent> {
    const client = t.client();
    await registerMember(client);
    await logInAdmin(client);
    await client.get(DASHBOARD).expect(200);
    await client.get(CREDENTIALS).expect(200);
    return client;
  }

  it('POST /admin/logout drops the administrator only, and rotates the token', async () => {
    const client = await both();
    const token = await csrfOf(client);
    const res = await client.post(LOGOUT).set('X-CSRF-Token', token).send({}).expect(200);
    expect(res.body).toEqual({ code: 0, message: expect.any(String), data: null });
    await expectRefusal(() => client.get(CREDENTIALS), 401, 'admin_not_logged_in');
    await client.get(DASHBOARD).expect(200);
    expect(await csrfOf(client)).not.toBe(token);
  });

  it('a second administrator logout, with the token the first replaced, is 401 admin_not_logged_in, not 419', async () => {
    const client = t.client();
    await logInAdmin(client);
    const token = await csrfOf(client);
    await client.post(LOGOUT).set('X-CSRF-Token', token).send({}).expect(200);
    await expectRefusal(() => client.post(LOGOUT).set('X-CSRF-Token', token).send({}), 401, 'admin_not_logged_in');
  });

  it('a logout still needs the current token while someone is logged in', async () => {
    const client = t.client();
    await logInAdmin(client);
    await expectRefusal(() => client.post(LOGOUT).set('X-CSRF-Token', 'stale').send({}), 419, 'csrf_token_invalid');
    await client.get(CREDENTIALS).expect(200);
  });

  it('POST /developer/logout drops the member only', async () => {
    const client = await both();
    const token = await csrfOf(client);
    await client.post(MEMBER_LOGOUT).set('X-CSRF-Token', token).send({}).expect(200);
    await expectRefusal(() => client.get(DASHBOARD), 401, 'not_logged_in');
    await client.get(CREDENTIALS).expect(200);
  });
});

describe('permissions of a role-group administrator', () => {
  it('an Auditors administrator (no credential.review) logs in and is refused the review queue with 403', async () => {
    const auditor = await adminInRoleGroup(2);
    const client = t.client();
    const before = await client.get(SESSION).expect(200);
    const res = await client
      .post(LOGIN)
      .set('X-CSRF-Token', before.body.data.csrf_token)
      .send({ username: auditor.username, password: auditor.password })
      .expect(200);
    expect(res.body.data).toEqual({
      id: auditor.id,
      username: auditor.username,
      is_super: false,
      role_id: 2,
      password_change_required: false,
      second_factor_required: false,
      second_factor_enrolment_required: false,
    });
    await expectRefusal(() => client.get(CREDENTIALS), 403, 'permission_denied');
    await expectRefusal(() => client.get('/api/v1/scope-requests'), 403, 'permission_denied');
  });

  it('an Operators administrator may review, until role group 1 is disabled', async () => {
    const operator = await adminInRoleGroup(1);
    const client = t.client();
    await logInAdmin(client, { username: operator.username, password: operator.password });
    await client.get(CREDENTIALS).expect(200);

    await setRoleGroupEnabled(t.platform.stores.events, 1, false, SHELL, cli());
    try {
      await untilStatus(() => client.get(CREDENTIALS), 403);
      const res = await expectRefusal(() => client.get(CREDENTIALS), 403, 'role_group_disabled');
      expect(res.body.message).toContain('disabled');
    } finally {
      // Role group 1 is seeded enabled; leave it so for whatever runs after this test.
      await setRoleGroupEnabled(t.platform.stores.events, 1, true, SHELL, cli());
    }
    await untilStatus(() => client.get(CREDENTIALS), 200);
    await client.get(CREDENTIALS).expect(200);
  });
});
