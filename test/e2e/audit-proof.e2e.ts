import type { APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

const API = '/api/v1';

/** A client's CSRF token for the area it is signed in to. */
async function token(request: APIRequestContext, area: 'developer' | 'admin'): Promise<string> {
  return ((await (await request.get(`${API}/${area}/session`)).json()) as { data: { csrf_token: string } }).data
    .csrf_token;
}

async function post(
  request: APIRequestContext,
  area: 'developer' | 'admin',
  path: string,
  data: Record<string, unknown>,
) {
  const res = await request.post(`${API}${path}`, { data, headers: { 'X-CSRF-Token': await token(request, area) } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as { data: Record<string, unknown> };
}

test('the auditor sees up to which signed checkpoint a history verifies', async ({ browser, baseURL, playwright }) => {
  // A member whose scope request an administrator rejected, all through the API.
  const developer = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  const { data: member } = await post(developer, 'developer', '/developer/register', {
    username: 'carol',
    password: 'carol-password',
    email: 'carol@example.com',
  });
  await post(developer, 'developer', '/developer/credential', {});
  await post(admin, 'admin', '/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
  await post(admin, 'admin', `/credentials/${String(member.id)}/approve`, {});
  await post(developer, 'developer', '/developer/claim', {});
  await post(developer, 'developer', '/developer/scopes', {
    scopes: ['member-groups.read'],
    reason: 'list the member groups',
  });
  await post(admin, 'admin', `/credentials/${String(member.id)}/scopes/member-groups.read/reject`, {
    reason: 'member groups are for staff tools only',
  });

  const page = await (await browser.newContext({ baseURL, timezoneId: 'UTC' })).newPage();
  await page.goto('/ui/admin/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Audit' }).click();
  // The service signs a checkpoint each second while events arrive (AUDIT_CHECKPOINT_SECONDS=1):
  // asked again until one holds the rejection.
  await expect(async () => {
    await page.getByLabel('Member id, username or API id').fill('carol');
    await page.getByRole('button', { name: 'Show the history' }).click();
    await expect(page.getByTestId('proof-status')).toHaveText(
      /^Verified up to the checkpoint of \d+ events, signed at .+\.$/,
      { timeout: 2000 },
    );
  }).toPass({ timeout: 15_000 });
  await expect(page.locator('.timeline')).toContainText('rejected the scope member-groups.read');
  await expect(page.locator('em.unverified')).toHaveCount(0);
  await screen(page, 'auditor-verified');
});
