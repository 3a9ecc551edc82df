import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

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

test('the console is served with its caching and content security policy; deep links load it', async ({ request, page }) => {
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

test('an expired session returns to sign-in with a message', async ({ page, context }) => {
  await page.goto('/ui/developer/register');
  await page.getByLabel('Username').fill('bob');
  await page.getByLabel('Password', { exact: true }).fill('bob-password');
  await page.getByLabel('Mobile').fill('+4915112345678');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, bob' })).toBeVisible();

  await context.clearCookies();
  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(page.getByRole('heading', { name: 'Developer sign-in' })).toBeVisible();
  await expect(page.getByText('Your session has ended. Sign in again to continue.')).toBeVisible();
  await screen(page, 'developer-session-expired');

  await page.getByLabel('Username').fill('bob');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/wrong/i);
  await page.getByLabel('Password').fill('bob-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, bob' })).toBeVisible();
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
  await fitsNarrow(page, 'Developer center', [
    ['/ui/developer', 'narrow-developer-dashboard'],
    ['/ui/developer/scopes', 'narrow-developer-scope-request'],
    ['/ui/developer/reference', 'narrow-developer-reference'],
  ]);

  // The administrator signs into the same session: both identities live in one cookie.
  await page.goto('/ui/admin/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();
  await fitsNarrow(page, 'Administrator console', [
    ['/ui/admin/credentials', 'narrow-admin-credential-queue'],
    ['/ui/admin/addons', 'narrow-admin-application-center'],
    ['/ui/admin/audit', 'narrow-auditor'],
  ]);
});
