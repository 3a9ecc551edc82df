import { request as http, type APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD, expect, signIn, test } from './fixtures';
import { atBothWidths, compactRowsAndKeys } from './story-helpers';

/** Issue 46: reviewing at scale (select all, one request), and approval rules approving at once. */

async function token(ctx: APIRequestContext): Promise<string> {
  return (await (await ctx.get('/api/v1/developer/session')).json()).data.csrf_token as string;
}

/** A member registered and applied over the API, on a browser context of its own. */
async function applicant(username: string, email: string, body: Record<string, unknown> = {}) {
  const ctx = await http.newContext({ baseURL: process.env.E2E_BASE_URL });
  const registered = await ctx.post('/api/v1/developer/register', {
    headers: { 'X-CSRF-Token': await token(ctx) },
    data: { username, password: 'secret1', email },
  });
  expect(registered.status()).toBe(200);
  const applied = await ctx.post('/api/v1/developer/credential', {
    headers: { 'X-CSRF-Token': await token(ctx) },
    data: body,
  });
  expect(applied.status()).toBe(200);
  await ctx.dispose();
}

test('230 applications approved with select-all, in one request, with the expiry named', async ({ page }) => {
  test.setTimeout(420_000);
  const prefix = `bulk${Date.now().toString(36)}`;
  const names = Array.from({ length: 230 }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
  // Four at a time: each registration hashes a password.
  for (let i = 0; i < names.length; i += 4)
    await Promise.all(
      names
        .slice(i, i + 4)
        .map((name, j) =>
          applicant(
            name,
            `${name}@example.com`,
            j === 0
              ? { company: 'Acme GmbH', website: 'https://acme.example', purpose: 'Sync the catalogue nightly' }
              : {},
          ),
        ),
    );

  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Credential applications' })).toBeVisible();
  await page.goto(`/ui/admin/credentials?status=pending&q=${prefix}`);
  await expect(page.getByText('Select all 50 on this page')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`${prefix}000`) })).toContainText('Acme GmbH');

  await compactRowsAndKeys(page);

  await page.getByLabel('Select all 50 on this page').check();
  await page.getByRole('button', { name: 'Select all 230 matching applications' }).click();
  await expect(page.getByText('All 230 matching applications are selected.')).toBeVisible();
  await atBothWidths(page, 'admin-bulk-selected');

  const decisions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/v1/credentials/')) decisions.push(r.url());
  });
  await page.getByLabel('Key expires for 230 selected applications').selectOption({ label: 'in 30 days' });
  await page.getByRole('button', { name: 'Approve 230 selected applications' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Approved 230 applications.' });
  await expect(notice).toContainText('Their keys expire on');
  expect(decisions).toEqual([expect.stringMatching(/\/api\/v1\/credentials\/decisions$/)]);
  await atBothWidths(page, 'admin-bulk-approved');
});

test('an approval rule approves a new application at once, and the console lists and disables it', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const domain = `rule${stamp}.example`;
  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Credential applications' })).toBeVisible();
  await page.getByRole('link', { name: 'Approval rules' }).click();
  await expect(page.getByRole('heading', { name: 'Approval rules' })).toBeVisible();
  await page.getByLabel('Name').fill(`Partners ${stamp}`);
  await page.getByLabel('For').selectOption({ label: 'an e-mail domain' });
  await page.getByLabel('E-mail domain').fill(domain);
  await page.getByLabel('Key lifetime in days (optional)').fill('90');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await expect(page.getByText(`Added the rule “Partners ${stamp}”`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Partners ${stamp}`) })).toContainText(`members at ${domain}`);
  await atBothWidths(page, 'admin-approval-rules');

  // A member at that domain applies in the developer center: approved at once, by the rule.
  const developerContext = await page.context().browser()!.newContext({ baseURL: process.env.E2E_BASE_URL });
  const developer = await developerContext.newPage();
  const username = `rul${stamp}`;
  const api = developer.request;
  expect(
    (
      await api.post('/api/v1/developer/register', {
        headers: { 'X-CSRF-Token': await token(api) },
        data: { username, password: 'secret1', email: `dev@${domain}` },
      })
    ).status(),
  ).toBe(200);
  await developer.goto('/ui/developer');
  await developer.getByLabel('Company (optional)').fill('Rule Partners Ltd');
  await developer.getByLabel('What you will use the API for (optional)').fill('Show our add-ons');
  await atBothWidths(developer, 'developer-apply-fields');
  await developer.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(
    developer.getByText(`Application approved at once by the rule “Partners ${stamp}”: claim your key.`),
  ).toBeVisible();

  // The reviewer sees it approved, by the rule, with what the member said.
  await page.goto(`/ui/admin/credentials?status=approved&q=${username}`);
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toContainText('Rule Partners Ltd');
  await expect(row).toContainText(`approved by the rule “Partners ${stamp}”`);

  await page.goto('/ui/admin/rules');
  await page.getByRole('button', { name: `Disable Partners ${stamp}` }).click();
  await expect(page.getByText(`Disabled the rule “Partners ${stamp}”`)).toBeVisible();
  await developerContext.close();
});
