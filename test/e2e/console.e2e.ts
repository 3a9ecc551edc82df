import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, signIn, test } from './fixtures';
import { DESKTOP, PHONE } from './story-helpers';

/** The console as served, a session that ended under a screen, and every screen at 375 px wide. */
/** Each screen, loaded, is no wider than the viewport: nothing to scroll sideways. */
async function fitsNarrow(page: Page, area: string, screens: [path: string, name: string][]) {
  for (const [path, name] of screens) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: area })).toBeVisible();
    await expect(page.locator('.loading')).toHaveCount(0);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screen(page, name);
  }
}

test('the console is served with its caching and content security policy; deep links load it', async ({
  request,
  page,
}) => {
  const root = await request.get('/', { maxRedirects: 0 });
  expect(root.status()).toBe(302);
  expect(root.headers().location).toBe('/ui/');

  const index = await request.get('/ui/');
  expect(index.headers()['cache-control']).toBe('no-cache');
  expect(index.headers()['content-security-policy']).toContain("default-src 'self'");
  const script = /<script type="module" crossorigin src="([^"]+)"/.exec(await index.text())![1]!;
  const asset = await request.get(script);
  expect(asset.headers()['cache-control']).toBe('max-age=31536000, immutable');

  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto('/ui/admin/addons');
  await expect(page.getByRole('heading', { name: 'Administrator sign-in' })).toBeVisible();
  // The policy refused nothing the console needs (a violation is a console error).
  expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
});

test('an expired session asks to sign in again over the screen, which stays as it was', async ({ page, context }) => {
  await page.goto('/ui/developer/register');
  await page.getByLabel('Username').fill('bob');
  await page.getByLabel('Password', { exact: true }).fill('bob-password');
  await page.getByLabel('Mobile').fill('+4915112345678');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, bob' })).toBeVisible();

  await context.clearCookies();
  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your session has ended: sign in again' });
  await expect(dialog).toBeVisible();
  await screen(page, 'developer-session-expired');

  await dialog.getByLabel('Username').fill('bob');
  await dialog.getByLabel('Password').fill('wrong-password');
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(/wrong/i);
  await dialog.getByLabel('Password').fill('bob-password');
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Hello, bob' })).toBeVisible();

  // Without a credential, scopes and the claim say in plain words what comes first, and link to it.
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.getByRole('link', { name: 'Request scopes' }).click();
    await expect(page.getByText(/Scopes belong to an API credential, and you do not have one yet/)).toBeVisible();
    await expect(page.getByLabel('Purpose of use')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Request' })).toHaveCount(0);
    await screen(page, `developer-scopes-without-credential-${viewport.width}`);
    await page.getByRole('link', { name: 'Claim', exact: true }).click();
    await expect(
      page.getByText('There is no key to claim yet: you have not applied for API credentials.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Claim the key' })).toHaveCount(0);
    await screen(page, `developer-claim-without-credential-${viewport.width}`);
  }
  await page.getByRole('link', { name: 'Apply on your dashboard' }).click();
  await expect(page.getByRole('button', { name: 'Apply for API credentials' })).toBeVisible();
});

test('at 375 px wide every screen fits without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/ui/developer/register');
  await page.getByLabel('Username').fill('narrow');
  await page.getByLabel('Password', { exact: true }).fill('narrow-password');
  await page.getByLabel('E-mail').fill('narrow@example.com');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, narrow' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(page.locator('.status').first()).toHaveText('pending');
  // While the application waits, scopes and the claim say so instead of offering what would be refused.
  for (const screenPath of ['/ui/developer/scopes', '/ui/developer/claim']) {
    await page.goto(screenPath);
    await expect(page.getByText(/waiting for an administrator to review it/)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'See its status on your dashboard' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('button', { name: /^(Request|Claim the key)$/ })).toHaveCount(0);
  }
  await fitsNarrow(page, 'Developer center', [
    ['/ui/developer', 'narrow-developer-dashboard'],
    ['/ui/developer/scopes', 'narrow-developer-scope-request'],
    ['/ui/developer/claim', 'narrow-developer-claim'],
    ['/ui/developer/reference', 'narrow-developer-reference'],
  ]);

  // The administrator signs into the same session: both identities live in one cookie.
  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();
  await fitsNarrow(page, 'Administrator console', [
    ['/ui/admin/credentials', 'narrow-admin-credential-queue'],
    ['/ui/admin/addons', 'narrow-admin-application-center'],
    ['/ui/admin/audit', 'narrow-auditor'],
  ]);
});
