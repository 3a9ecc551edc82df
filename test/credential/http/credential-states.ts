import request from 'supertest';
import {
  Answer,
  expectRefusal as refusal,
  logInAdmin,
  registerMember,
  startPlatform,
  TestPlatform,
} from '../../support/platform';

/**
 * Members in each credential state, set up once per test file, for the unhappy paths of the
 * credential endpoints: every request against them is refused and appends nothing, so the tests
 * cannot disturb each other. Call useCredentialStates() at the top of the file; the bindings below
 * hold the platform and the members once its beforeAll has run.
 */

export const API = '/api/v1';
export const REASON = 'sync the catalogue to our portal';
export const LONG_REASON = 'x'.repeat(501);

export interface Developer {
  client: request.Agent;
  id: number;
  token: string;
}

export let t: TestPlatform;
export let admin: request.Agent;
export let adminToken: string;

/** Members by the state of their credential. */
export let fresh: Developer; // never applied
export let pending: Developer; // applied, not reviewed
export let approved: Developer; // approved, not claimed
export let active: Developer; // claimed; member-groups.read pending, addons.read never requested
export let granted: Developer; // claimed; addons.read approved
export let fixtures: Record<'fresh' | 'pending' | 'approved' | 'active' | 'granted', Developer>;

export const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

export function send(developer: Developer, path: string, body: string | object = {}) {
  return developer.client.post(`${API}${path}`).set('X-CSRF-Token', developer.token).send(body);
}

export function review(path: string, body: object = {}) {
  return admin.post(`${API}${path}`).set('X-CSRF-Token', adminToken).send(body);
}

export async function registered(): Promise<Developer> {
  const client = t.client();
  const member = await registerMember(client);
  return { client, id: member.id, token: member.token };
}

export async function applied(): Promise<Developer> {
  const developer = await registered();
  await send(developer, '/developer/credential').expect(200);
  return developer;
}

export async function approvedOne(): Promise<Developer> {
  const developer = await applied();
  await review(`/credentials/${developer.id}/approve`).expect(200);
  return developer;
}

export async function claimed(): Promise<Developer & { apiid: string; apikey: string }> {
  const developer = await approvedOne();
  const res = await send(developer, '/developer/claim').expect(200);
  return { ...developer, apiid: res.body.data.apiid, apikey: res.body.data.apikey };
}

export async function scopeRequestsOf(developer: Developer, scope: string) {
  return (await t.allEvents()).filter(
    (e) => e.stream === `credential-${developer.id}` && e.type === 'ScopeRequested' && e.data.scope === scope,
  );
}

export function expectIssue(res: Answer, path: string): void {
  expect(res.body.data.issues).toContainEqual({ path, message: expect.any(String) });
}

export function useCredentialStates(): void {
  beforeAll(async () => {
    t = await startPlatform();
    admin = t.client();
    adminToken = await logInAdmin(admin);
    [fresh, pending, approved, active, granted] = await Promise.all([
      registered(),
      applied(),
      approvedOne(),
      claimed(),
      claimed(),
    ]);
    await send(active, '/developer/scopes', { scopes: ['member-groups.read'], reason: REASON }).expect(200);
    await send(granted, '/developer/scopes', { scopes: ['addons.read'], reason: REASON }).expect(200);
    await review(`/credentials/${granted.id}/scopes/addons.read/approve`).expect(200);
    fixtures = { fresh, pending, approved, active, granted };
  });
  afterAll(() => t.close());
}
