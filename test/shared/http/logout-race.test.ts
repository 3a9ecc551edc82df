import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { Stores } from '../../../src/stores/ports';
import { logInAdmin, registerMember, sessionCookie, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';

/** Counts session reads, so a test knows when a request has loaded its session. */
const loads = { count: 0 };
function countingLoads(stores: Stores): Stores {
  const { sessions } = stores;
  return {
    ...stores,
    sessions: {
      get: (id) => {
        loads.count += 1;
        return sessions.get(id);
      },
      create: (id, data, ttl) => sessions.create(id, data, ttl),
      update: (id, data, ttl) => sessions.update(id, data, ttl),
      touch: (id, ttl) => sessions.touch(id, ttl),
      regenerate: (from, to, move) => sessions.regenerate(from, to, move),
      destroy: (id) => sessions.destroy(id),
      close: () => sessions.close(),
    },
  };
}

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({}, undefined, countingLoads);
});
afterAll(() => t.close());

interface Held {
  /** Sends the rest of the body; resolves with the answer. */
  finish(): Promise<{ status: number; body: string }>;
}

/**
 * A write whose headers (session cookie, CSRF token) are sent but whose body is not: the service
 * has loaded the session and waits for the body, as a slow upload does. Resolves once loaded.
 */
async function holdWrite(path: string, cookie: string, token: string): Promise<Held> {
  const { port } = t.server.address() as AddressInfo;
  const before = loads.count;
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path: `${API}${path}`,
    method: 'POST',
    headers: { Cookie: cookie, 'X-CSRF-Token': token, 'Content-Type': 'application/json', 'Content-Length': '2' },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
  req.write('{');
  while (loads.count === before) await sleep(5);
  return {
    finish() {
      req.end('}');
      return answer;
    },
  };
}

/** The `PHPSESSID=…` pair the client's session cookie holds now. */
async function currentCookie(client: ReturnType<TestPlatform['client']>): Promise<string> {
  const res = await client.get(`${API}/developer/session`).expect(200);
  const cookie = sessionCookie(res);
  if (!cookie) throw new Error('no session cookie');
  return cookie.slice(0, cookie.indexOf(';'));
}

/** The sessions stored with data: one a login or logout moved keeps only the id it moved to. */
function storedSessionIds(): string[] {
  const db = new BetterSqlite3(join(t.dataDir, 'platform.db'), { readonly: true });
  try {
    return db.prepare<[], { id: string }>("SELECT id FROM sessions WHERE data <> '{}'").all().map((row) => row.id);
  } finally {
    db.close();
  }
}

const digest = (cookie: string) => createHash('sha256').update(cookie.slice('PHPSESSID='.length)).digest('base64url');

describe('a write that began before a logout and ends after it', () => {
  it('cannot bring the member or the pre-logout CSRF token back', async () => {
    const victim = t.client();
    const member = await registerMember(victim);
    const stolen = await currentCookie(victim);
    const held = await holdWrite('/developer/credential', stolen, member.token);

    await victim.post(`${API}/developer/logout`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const written = await held.finish();
    expect(written.status).toBe(200);

    const thief = t.client();
    await thief.get(`${API}/developer/dashboard`).set('Cookie', stolen).expect(401);
    const res = await thief.post(`${API}/developer/credential`).set('Cookie', stolen).set('X-CSRF-Token', member.token).send({});
    expect([res.status, res.body.data.error]).toEqual([401, 'session_expired']);
    await victim.get(`${API}/developer/dashboard`).expect(401);
    const replayed = await victim.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({});
    expect([replayed.status, replayed.body.data.error]).toEqual([419, 'csrf_token_invalid']);
    expect(storedSessionIds()).not.toContain(digest(stolen));
  });

  it('cannot bring the administrator or the pre-logout CSRF token back', async () => {
    const applicant = t.client();
    const member = await registerMember(applicant);
    await applicant.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const victim = t.client();
    const token = await logInAdmin(victim);
    const stolen = await currentCookie(victim);
    const held = await holdWrite(`/credentials/${member.id}/approve`, stolen, token);

    await victim.post(`${API}/admin/logout`).set('X-CSRF-Token', token).send({}).expect(200);
    expect((await held.finish()).status).toBe(200);

    const thief = t.client();
    await thief.get(`${API}/credentials`).set('Cookie', stolen).expect(401);
    const res = await thief.post(`${API}/credentials/${member.id}/reject`).set('Cookie', stolen).set('X-CSRF-Token', token).send({ reason: 'x' });
    expect([res.status, res.body.data.error]).toEqual([401, 'session_expired']);
    await victim.get(`${API}/credentials`).expect(401);
    const replayed = await victim.post(`${API}/credentials/${member.id}/reject`).set('X-CSRF-Token', token).send({ reason: 'x' });
    expect([replayed.status, replayed.body.data.error]).toEqual([419, 'csrf_token_invalid']);
  });
});

describe('session ids at rest', () => {
  it('are stored as digests: the sessions table holds no id a browser could present', async () => {
    const client = t.client();
    await registerMember(client);
    const cookie = await currentCookie(client);
    const ids = storedSessionIds();
    expect(ids).toContain(digest(cookie));
    expect(ids).not.toContain(cookie.slice('PHPSESSID='.length));
  });
});
