import { createHash } from 'node:crypto';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { countingSessionLoads, currentCookie, holdPost } from '../../support/held-request';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({}, undefined, countingSessionLoads);
});
afterAll(() => t.close());

const holdWrite = (path: string, cookie: string, token: string) => holdPost(t.server, `${API}${path}`, cookie, token);

/** The sessions stored with data: one a login or logout moved keeps only the id it moved to. */
function storedSessionIds(): string[] {
  const db = new BetterSqlite3(join(t.dataDir, 'platform.db'), { readonly: true });
  try {
    return db
      .prepare<[], { id: string }>("SELECT id FROM sessions WHERE data <> '{}'")
      .all()
      .map((row) => row.id);
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
    // The answer leaves the browser's cookie alone: renewing it would put the dead id back.
    expect(written.cookie).toBeUndefined();

    const thief = t.client();
    await thief.get(`${API}/developer/dashboard`).set('Cookie', stolen).expect(401);
    const res = await thief
      .post(`${API}/developer/credential`)
      .set('Cookie', stolen)
      .set('X-CSRF-Token', member.token)
      .send({});
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
    const res = await thief
      .post(`${API}/credentials/${member.id}/reject`)
      .set('Cookie', stolen)
      .set('X-CSRF-Token', token)
      .send({ reason: 'x' });
    expect([res.status, res.body.data.error]).toEqual([401, 'session_expired']);
    await victim.get(`${API}/credentials`).expect(401);
    const replayed = await victim
      .post(`${API}/credentials/${member.id}/reject`)
      .set('X-CSRF-Token', token)
      .send({ reason: 'x' });
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
