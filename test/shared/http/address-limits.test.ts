import { readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { eventually } from '../../support/eventually';
import { recordId } from '../../../src/shared/http/session-records';
import {
  csrfOf,
  expectRefusal,
  logIn,
  registerMember,
  startPlatform,
  TestPlatform,
  uniqueUsername,
  Answer,
} from '../../support/platform';

/** Every password verification argon2 starts; while `gate` is set, each waits for it to open. */
const mockArgon2 = { verifications: 0, gate: undefined as Promise<void> | undefined };
jest.mock('argon2', () => {
  const argon2 = jest.requireActual<typeof import('argon2')>('argon2');
  return {
    ...argon2,
    verify: async (...args: Parameters<typeof argon2.verify>) => {
      mockArgon2.verifications += 1;
      await mockArgon2.gate;
      return argon2.verify(...args);
    },
  };
});

const API = '/api/v1';
const ADDRESS_FAILURES = 4;
const REGISTRATIONS = 3;
const ANONYMOUS_SESSIONS = 12;

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({
    LOGIN_ADDRESS_MAX_FAILURES: ADDRESS_FAILURES,
    LOGIN_MAX_FAILURES: 3,
    REGISTRATION_LIMIT: REGISTRATIONS,
    ANONYMOUS_SESSION_LIMIT: ANONYMOUS_SESSIONS,
    PASSWORD_CHECKS_IN_FLIGHT: 1,
  });
});
afterAll(() => t.close());

const refused = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  expectRefusal(t, send, status, error);

/** Connections from other loopback addresses than supertest's 127.0.0.1: other client addresses. */
const agents: Agent[] = [];
function from(address: string): Agent {
  const agent = new Agent({ localAddress: address });
  agents.push(agent);
  return agent;
}
afterAll(() => agents.forEach((a) => a.destroy()));

/** A client (one cookie jar) whose every request leaves from this connection agent's address. */
function clientFrom(agent: Agent): request.Agent {
  const client = t.client();
  return new Proxy(client, {
    get(target, name, receiver) {
      if (name !== 'get' && name !== 'post') return Reflect.get(target, name, receiver);
      return (path: string) => target[name](path).agent(agent);
    },
  });
}

describe('failed logins per client address, across usernames', () => {
  it('refuses made-up usernames from one address without checking their passwords, and nobody else', async () => {
    const flooder = clientFrom(from('127.0.0.3'));
    const token = await csrfOf(flooder);
    const attempt = (username: string) =>
      flooder.post(`${API}/developer/login`).set('X-CSRF-Token', token).send({ username, password: 'guess-123' });
    for (let i = 0; i < ADDRESS_FAILURES; i++)
      await refused(() => attempt(uniqueUsername('ghost')), 401, 'invalid_credentials');

    const checked = mockArgon2.verifications;
    const res = await refused(() => attempt(uniqueUsername('ghost')), 429, 'too_many_login_failures');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(mockArgon2.verifications).toBe(checked);

    // A member logging in from another address is not held up by the flood.
    const member = await registerMember(clientFrom(from('127.0.0.4')));
    const legit = clientFrom(from('127.0.0.5'));
    const legitToken = await csrfOf(legit);
    await legit
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', legitToken)
      .send({ username: member.username, password: member.password })
      .expect(200);
  });

  it('does not count successful logins against the address', async () => {
    const client = clientFrom(from('127.0.0.6'));
    const member = await registerMember(clientFrom(from('127.0.0.7')));
    for (let i = 0; i < ADDRESS_FAILURES + 2; i++) {
      const token = await csrfOf(client);
      await client
        .post(`${API}/developer/login`)
        .set('X-CSRF-Token', token)
        .send({ username: member.username, password: member.password })
        .expect(200);
      const memberToken = await csrfOf(client);
      await client.post(`${API}/developer/logout`).set('X-CSRF-Token', memberToken).send({}).expect(200);
    }
  });

  it('keeps the usernames it counts as digests: a password typed as a username is not at rest in clear', async () => {
    const client = clientFrom(from('127.0.0.8'));
    const typo = 'Tr0ub4dor-and-3';
    const token = await csrfOf(client);
    await client
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', token)
      .send({ username: typo, password: 'whatever-1' })
      .expect(401);
    for (const file of readdirSync(t.dataDir).filter((f) => f.startsWith('rate-limits.db'))) {
      const bytes = readFileSync(join(t.dataDir, file)).toString('latin1').toLowerCase();
      expect(bytes).not.toContain(typo.toLowerCase());
    }
  });
});

describe('password hashes in flight', () => {
  it('answers a login beyond the bound 503 with Retry-After at once, and the one under way completes', async () => {
    const member = await registerMember(clientFrom(from('127.0.0.9')));
    const [first, second] = [clientFrom(from('127.0.0.10')), clientFrom(from('127.0.0.11'))];
    const [firstToken, secondToken] = [await csrfOf(first), await csrfOf(second)];
    let open = () => {};
    mockArgon2.gate = new Promise<void>((resolve) => (open = resolve));
    const before = mockArgon2.verifications;
    const underWay = first
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', firstToken)
      .send({ username: member.username, password: member.password })
      .then((r) => r);
    await eventually(() => mockArgon2.verifications > before, { every: 5, what: 'the first login hashing' });
    try {
      const res = await refused(
        () =>
          second
            .post(`${API}/developer/login`)
            .set('X-CSRF-Token', secondToken)
            .send({ username: member.username, password: member.password }),
        503,
        'password_checks_busy',
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      mockArgon2.gate = undefined;
      open();
    }
    expect((await underWay).status).toBe(200);
    // The refused attempt checked no password, so it counts as no failure: the retry succeeds.
    await second
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', secondToken)
      .send({ username: member.username, password: member.password })
      .expect(200);
  });
});

describe('registrations per client address', () => {
  it(`allows ${REGISTRATIONS} in the window, then 429 with Retry-After and nothing stored`, async () => {
    const address = from('127.0.0.12');
    for (let i = 0; i < REGISTRATIONS; i++) await registerMember(clientFrom(address));
    const client = clientFrom(address);
    const token = await csrfOf(client);
    const res = await refused(
      () =>
        client
          .post(`${API}/developer/register`)
          .set('X-CSRF-Token', token)
          .send({ username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' }),
      429,
      'too_many_registrations',
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await registerMember(clientFrom(from('127.0.0.13')));
  });
});

describe('new sessions without an identity per client address', () => {
  it(`stores ${ANONYMOUS_SESSIONS} in the window; past them a session is kept nowhere, and its holder still registers and signs in`, async () => {
    const address = from('127.0.0.14');
    const stored = async (answer: Answer) =>
      t.platform.stores.sessions.get(recordId(/PHPSESSID=([^;]+)/.exec(String(answer.headers['set-cookie']))![1]!));
    for (let i = 0; i < ANONYMOUS_SESSIONS; i++)
      expect(await stored(await clientFrom(address).get(`${API}/developer/session`))).not.toBeNull();
    const late = clientFrom(address);
    const first = await late.get(`${API}/developer/session`).expect(200);
    expect(await stored(first)).toBeNull();
    const member = await registerMember(late);
    await late.get(`${API}/developer/dashboard`).expect(200);

    const signingIn = clientFrom(address);
    await logIn(signingIn, member);
    await signingIn.get(`${API}/developer/dashboard`).expect(200);
    // The token of a session kept nowhere is its own: another one's is refused.
    const other = clientFrom(address);
    await other.get(`${API}/developer/session`).expect(200);
    await refused(
      () =>
        other
          .post(`${API}/developer/login`)
          .set('X-CSRF-Token', first.body.data.csrf_token)
          .send({ username: member.username, password: member.password }),
      419,
      'csrf_token_invalid',
    );
  });
});

describe('a logout once the address has opened all its anonymous sessions', () => {
  it('answers 200 and ends the identity: the session it leaves is not a new one', async () => {
    const address = from('127.0.0.16');
    const client = clientFrom(address);
    const member = await registerMember(client);
    for (let i = 0; i <= ANONYMOUS_SESSIONS; i++) await csrfOf(clientFrom(address));
    await client.post(`${API}/developer/logout`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const after = await client.get(`${API}/developer/dashboard`);
    expect([after.status, after.body.data.error]).toEqual([401, 'not_logged_in']);
  });
});
