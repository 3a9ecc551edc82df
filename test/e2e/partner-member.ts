import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import { ADMIN_PASSWORD, expect } from './fixtures';

/** A write through the API as a session's own client sends it: with that session's CSRF token. */
export async function post(request: APIRequestContext, area: 'developer' | 'admin', path: string, data: unknown = {}) {
  const token = (await (await request.get(`/api/v1/${area}/session`)).json()).data.csrf_token as string;
  const answer = await request.post(`/api/v1${path}`, { headers: { 'X-CSRF-Token': token }, data });
  expect(answer.status(), `${path}: ${await answer.text()}`).toBe(200);
  return (await answer.json()).data;
}

/**
 * A member with a claimed key and addons.read approved, made through the API (the stories using it
 * are about other screens): registered in `member`'s session, decided by an administrator's session.
 */
export async function partnerMember(
  member: APIRequestContext,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  prefix: string,
) {
  const username = `${prefix}${Date.now().toString(36)}`;
  const { id } = (await post(member, 'developer', '/developer/register', {
    username,
    password: 'secret-pass',
    email: `${username}@example.com`,
  })) as { id: number };
  await post(member, 'developer', '/developer/credential');
  const admin = await playwright.request.newContext({ baseURL });
  await post(admin, 'admin', '/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
  await post(admin, 'admin', `/credentials/${id}/approve`);
  const { apiid, apikey } = (await post(member, 'developer', '/developer/claim')) as { apiid: string; apikey: string };
  await post(member, 'developer', '/developer/scopes', {
    scopes: ['addons.read'],
    reason: 'List the add-ons on our partner site',
  });
  await post(admin, 'admin', `/credentials/${id}/scopes/addons.read/approve`);
  await admin.dispose();
  return { id, username, apiid, apikey };
}
