import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { activePartner, mistypedKey, openCall, Partner } from '../../support/credentials';
import {
  ADMIN_PASSWORD,
  Answer,
  csrfOf,
  expectRefusal,
  registerMember,
  startPlatform,
  TestPlatform,
  uniqueUsername,
} from '../../support/platform';

/** Every password verification the service starts: argon2 itself, counted on the way through. */
const mockVerifications = { count: 0 };
jest.mock('argon2', () => {
  const argon2 = jest.requireActual<typeof import('argon2')>('argon2');
  return {
    ...argon2,
    verify: (...args: Parameters<typeof argon2.verify>) => {
      mockVerifications.count += 1;
      return argon2.verify(...args);
    },
  };
});

const API = '/api/v1';
const MEMBER_LOGIN = `${API}/developer/login`;
const ADMIN_LOGIN = `${API}/admin/login`;
const LIMIT = 3;
const MAX_FAILURES = 3;

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({
    OPEN_API_RATE_LIMIT: LIMIT,
    OPEN_API_RATE_WINDOW_SECONDS: 60,
    LOGIN_MAX_FAILURES: MAX_FAILURES,
  });
});
afterAll(() => t.close());

const refused = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  expectRefusal(t, send, status, error);

/** Requests from another loopback address than supertest's 127.0.0.1: another client address. */
const elsewhere = new Agent({ localAddress: '127.0.0.2' });
afterAll(() => elsewhere.destroy());

function expectCounted(res: { headers: Record<string, unknown> }, remaining: number): void {
  expect(res.headers).toMatchObject({
    'ratelimit-policy': `"open-api";q=${LIMIT};w=60`,
    ratelimit: expect.stringMatching(new RegExp(`^"open-api";r=${remaining};t=\\d+$`)),
    'ratelimit-limit': String(LIMIT),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': expect.stringMatching(/^\d+$/),
  });
  expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
}

describe('the open API rate limit, per API id', () => {
  let p: Partner;
  beforeAll(async () => {
    p = await activePartner(t);
  });

  it('tells the partner where it stands on every accepted call, then refuses with 429 rate_limited', async () => {
    for (let remaining = LIMIT - 1; remaining >= 0; remaining--) {
      expectCounted(await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200), remaining);
    }
    const res = await refused(() => openCall(t, '/open/addons', p.apiid, p.apikey), 429, 'rate_limited');
    expectCounted(res, 0);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.body.message).toBe(`this API id made more than ${LIMIT} calls in 60 s: retry in ${retryAfter} s`);
    expect(JSON.stringify([res.body, res.headers, t.logLines])).not.toContain(p.apikey);
  });

  it('leaves every other API id alone', async () => {
    const other = await activePartner(t);
    expectCounted(await openCall(t, '/open/addons', other.apiid, other.apikey).expect(200), LIMIT - 1);
    await refused(() => openCall(t, '/open/addons', p.apiid, p.apikey), 429, 'rate_limited');
  });

  it('counts only accepted credentials: a call refused with 401 is not counted, whatever API id it names', async () => {
    const fresh = await activePartner(t);
    for (let i = 0; i < LIMIT + 2; i++) {
      const wrongKey = await refused(
        () => openCall(t, '/open/addons', fresh.apiid, mistypedKey(fresh.apikey)),
        401,
        'api_credentials_invalid',
      );
      // Told the client address's refused calls (credential-failure-limit.test.ts), never the API id's allowance.
      expect(wrongKey.headers['ratelimit-policy']).toMatch(/^"open-api-credential-failures";/);
      await refused(() => openCall(t, '/open/addons', `made-up-${i}`, fresh.apikey), 401, 'api_credentials_invalid');
    }
    expectCounted(await openCall(t, '/open/addons', fresh.apiid, fresh.apikey).expect(200), LIMIT - 1);
  });

  it('counts a call refused for its scope (403): every authenticated call is work done for that partner', async () => {
    const fresh = await activePartner(t);
    expectCounted(
      await refused(() => openCall(t, '/open/member-groups', fresh.apiid, fresh.apikey), 403, 'scope_not_approved'),
      LIMIT - 1,
    );
    expectCounted(await openCall(t, '/open/addons', fresh.apiid, fresh.apikey).expect(200), LIMIT - 2);
  });
});

describe('the open API rate window', () => {
  it('admits the API id again once its window has passed', async () => {
    const short = await startPlatform({ OPEN_API_RATE_LIMIT: 2, OPEN_API_RATE_WINDOW_SECONDS: 1 });
    try {
      const p = await activePartner(short);
      await openCall(short, '/open/addons', p.apiid, p.apikey).expect(200);
      await openCall(short, '/open/addons', p.apiid, p.apikey).expect(200);
      const over = await expectRefusal(
        short,
        () => openCall(short, '/open/addons', p.apiid, p.apikey),
        429,
        'rate_limited',
      );
      expect(over.headers['ratelimit-policy']).toBe('"open-api";q=2;w=1');
      expect(over.headers['retry-after']).toBe('1');

      await sleep(Number(over.headers['retry-after']) * 1000 + 50);
      const again = await openCall(short, '/open/addons', p.apiid, p.apikey).expect(200);
      expect(again.headers['ratelimit-remaining']).toBe('1');
    } finally {
      await short.close();
    }
  });
});

describe('failed logins, per username and client address', () => {
  /** A registered member, and a fresh client (session and CSRF token) to log in with. */
  async function member() {
    const registered = await registerMember(t.client());
    const client = t.client();
    return { ...registered, client, token: await csrfOf(client) };
  }

  type Member = Awaited<ReturnType<typeof member>>;
  const login = (m: Member, password: string, username = m.username) =>
    m.client.post(MEMBER_LOGIN).set('X-CSRF-Token', m.token).send({ username, password });

  async function failTimes(m: Member, times: number, username = m.username): Promise<void> {
    for (let i = 0; i < times; i++)
      await refused(() => login(m, 'wrong-password', username), 401, 'invalid_credentials');
  }

  it(`answers 429 too_many_login_failures after ${MAX_FAILURES} failures, even to the right password, without checking it`, async () => {
    const m = await member();
    await failTimes(m, MAX_FAILURES);
    const before = mockVerifications.count;
    const res = await refused(() => login(m, m.password), 429, 'too_many_login_failures');
    expect(mockVerifications.count).toBe(before);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(890);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(res.body.message).toBe('too many failed logins for this username from this address: retry in 15 min');
    await refused(() => m.client.get(`${API}/developer/dashboard`), 401, 'not_logged_in');
  });

  it('folds the username as logins do: another spelling of a blocked username is blocked too', async () => {
    const m = await member();
    await failTimes(m, MAX_FAILURES, m.username.toUpperCase());
    await refused(() => login(m, m.password), 429, 'too_many_login_failures');
  });

  it('blocks only that username, and only from that address', async () => {
    const blocked = await member();
    await failTimes(blocked, MAX_FAILURES);
    await refused(() => login(blocked, blocked.password), 429, 'too_many_login_failures');

    const neighbour = await member();
    await login(neighbour, neighbour.password).expect(200);
    await login(blocked, blocked.password).agent(elsewhere).expect(200);
  });

  it('starts counting again after a successful login', async () => {
    const m = await member();
    for (let round = 0; round < 3; round++) {
      await failTimes(m, MAX_FAILURES - 1);
      await login(m, m.password).expect(200);
      m.token = await csrfOf(m.client);
    }
  });

  it('does not count a body it refuses as malformed (422): no password was checked', async () => {
    const m = await member();
    for (let i = 0; i < MAX_FAILURES + 1; i++) {
      await refused(
        () => m.client.post(MEMBER_LOGIN).set('X-CSRF-Token', m.token).send({ username: m.username }),
        422,
        'validation_failed',
      );
    }
    await login(m, m.password).expect(200);
  });

  it(`lets no more than ${MAX_FAILURES} of 20 simultaneous attempts reach the password check`, async () => {
    const m = await member();
    const before = mockVerifications.count;
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(m, 'wrong-password')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(MAX_FAILURES).fill(401), ...Array<number>(20 - MAX_FAILURES).fill(429)]);
    expect(mockVerifications.count - before).toBe(MAX_FAILURES);
  });

  it('keeps member and administrator logins apart: failures on one never block the other', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const asMember = () =>
      client.post(MEMBER_LOGIN).set('X-CSRF-Token', token).send({ username: 'admin', password: ADMIN_PASSWORD });
    for (let i = 0; i < MAX_FAILURES; i++) await refused(asMember, 401, 'invalid_credentials');
    await refused(asMember, 429, 'too_many_login_failures');
    await client
      .post(ADMIN_LOGIN)
      .set('X-CSRF-Token', token)
      .send({ username: 'admin', password: ADMIN_PASSWORD })
      .expect(200);
  });

  it('limits administrator logins the same way', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const username = uniqueUsername('ghost');
    const attempt = () =>
      client.post(ADMIN_LOGIN).set('X-CSRF-Token', token).send({ username, password: 'any-password' });
    for (let i = 0; i < MAX_FAILURES; i++) await refused(attempt, 401, 'invalid_credentials');
    const res = await refused(attempt, 429, 'too_many_login_failures');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
