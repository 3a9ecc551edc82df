import request from 'supertest';
import { csrfOf, logInAdmin, registerMember, TestPlatform } from './platform';

const API = '/api/v1';

export interface Partner {
  developer: request.Agent;
  admin: request.Agent;
  adminToken: string;
  member: Awaited<ReturnType<typeof registerMember>>;
  apiid: string;
  apikey: string;
}

/**
 * A member whose credential went through the whole flow over HTTP: applied, approved, claimed,
 * and the given scopes requested and approved.
 */
export async function activePartner(
  t: Pick<TestPlatform, 'client'>,
  scopes: string[] = ['addons.read'],
): Promise<Partner> {
  const { developer, member, admin, adminToken } = await approvedMember(t);
  const { apiid, apikey } = await claim(developer, member);
  if (scopes.length > 0) {
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', member.token)
      .send({ scopes, reason: 'integration' })
      .expect(200);
    for (const scope of scopes) {
      await admin
        .post(`${API}/credentials/${member.id}/scopes/${scope}/approve`)
        .set('X-CSRF-Token', adminToken)
        .send({})
        .expect(200);
    }
  }
  return { developer, admin, adminToken, member, apiid, apikey };
}

/** Claims the member's approved credential on its developer session: the API id, and the key shown this once. */
export async function claim(developer: request.Agent, member: { token: string }) {
  const claimed = await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
  return claimed.body.data as { apiid: string; apikey: string };
}

/**
 * A member whose application the (logged-in) super administrator approved (with this body), not yet
 * claimed. A function is asked for the body at the approval itself, after the password hashing
 * before it: an expiry a moment ahead is then a moment ahead of the approval, however loaded the machine.
 */
export async function approvedMember(
  t: Pick<TestPlatform, 'client'>,
  approval: Record<string, unknown> | (() => Record<string, unknown>) = {},
) {
  const developer = t.client();
  const member = await registerMember(developer);
  await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
  const admin = t.client();
  const adminToken = await logInAdmin(admin);
  await admin
    .post(`${API}/credentials/${member.id}/approve`)
    .set('X-CSRF-Token', adminToken)
    .send(typeof approval === 'function' ? approval() : approval)
    .expect(200);
  return { developer, member, admin, adminToken };
}

/** A partner server's call on one instance: no cookie, the credential in headers. */
export function openCall(t: TestPlatform, path: string, apiid: string, apikey: string) {
  return request(t.server).get(`${API}${path}`).set('X-API-ID', apiid).set('X-API-Key', apikey);
}

/** Rotates the partner's key on its developer session; answers the new key. */
export async function rotate(p: Partner, body: Record<string, unknown> = {}): Promise<string> {
  const res = await p.developer
    .post(`${API}/developer/rotate`)
    .set('X-CSRF-Token', await csrfOf(p.developer))
    .send(body)
    .expect(200);
  return res.body.data.apikey as string;
}

/** The key with its last character changed: always a different key, whatever that character was. */
export function mistypedKey(apikey: string): string {
  return `${apikey.slice(0, -1)}${apikey.endsWith('x') ? 'y' : 'x'}`;
}
