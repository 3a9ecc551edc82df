import type { APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD, expect, signIn, test } from './fixtures';
import { post } from './partner-member';
import { atBothWidths, compactRowsAndKeys } from './story-helpers';

/** Issue 46: the scope-request queue reviewed in bulk, as the credential queue is (select all, one request, the keys). */

const COUNT = 55;

/** Members with a claimed key who asked for addons.read, their credentials approved in one bulk request. */
async function scopeRequests(newContext: () => Promise<APIRequestContext>, prefix: string) {
  const admin = await newContext();
  await post(admin, 'admin', '/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
  const members: { client: APIRequestContext; id: number }[] = [];
  // Four at a time: each registration hashes a password.
  for (let i = 0; i < COUNT; i += 4)
    members.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(4, COUNT - i) }, async (_, j) => {
          const username = `${prefix}${String(i + j).padStart(3, '0')}`;
          const client = await newContext();
          const { id } = (await post(client, 'developer', '/developer/register', {
            username,
            password: 'secret1',
            email: `${username}@example.com`,
          })) as { id: number };
          await post(client, 'developer', '/developer/credential');
          return { client, id };
        }),
      )),
    );
  await post(admin, 'admin', '/credentials/decisions', {
    items: members.map(({ id }) => ({ member_id: id, decision: 'approve' })),
  });
  for (const { client } of members) {
    await post(client, 'developer', '/developer/claim');
    await post(client, 'developer', '/developer/scopes', { scopes: ['addons.read'], reason: 'Show our add-ons' });
    await client.dispose();
  }
  await admin.dispose();
}

test(`${COUNT} scope requests approved with select-all, in one request, the keys moving and selecting`, async ({
  page,
  playwright,
  baseURL,
}) => {
  // 55 members registered (each hashing a password), then the screens: 4.8 min at a load of 22.
  test.setTimeout(600_000);
  const prefix = `scb${Date.now().toString(36)}`;
  await scopeRequests(() => playwright.request.newContext({ baseURL }), prefix);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Credential applications' })).toBeVisible();
  await page.goto(`/ui/admin/scopes?status=pending&q=${prefix}`);
  await expect(page.getByText('Select all 50 on this page')).toBeVisible();
  await expect(page.getByText(`1–50 of ${COUNT}`)).toBeVisible();

  // Compact rows (the purpose on one line) and the keys.
  await compactRowsAndKeys(page);

  await page.getByLabel('Select all 50 on this page').check();
  await page.getByRole('button', { name: `Select all ${COUNT} matching scope requests` }).click();
  await expect(page.getByText(`All ${COUNT} matching scope requests are selected.`)).toBeVisible();
  await atBothWidths(page, 'admin-scope-bulk-selected');

  const decisions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/v1\/(credentials|scope-requests)\//.test(r.url())) decisions.push(r.url());
  });
  await page.getByRole('button', { name: `Approve ${COUNT} selected scope requests` }).click();
  const notice = page.getByRole('status').filter({ hasText: `Approved ${COUNT} scope requests.` });
  await expect(notice).toContainText('A scope has no expiry of its own');
  expect(decisions).toEqual([expect.stringMatching(/\/api\/v1\/scope-requests\/decisions$/)]);
  await expect(page.getByText(`No pending scope request.`)).toBeVisible();
  await expect(page.getByLabel('Status').locator('option:checked')).toHaveText('pending (0)');
  await atBothWidths(page, 'admin-scope-bulk-approved');
});
