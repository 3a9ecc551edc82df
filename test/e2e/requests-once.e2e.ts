import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, test } from './fixtures';
import { partnerMember } from './partner-member';

/** The API requests a page sends while `act` runs and until the network is quiet, each with how often it was sent. */
async function sentDuring(page: Page, act: () => Promise<unknown>): Promise<Record<string, number>> {
  const sent: Record<string, number> = {};
  const count = (request: { method(): string; url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      sent[`${request.method()} ${url.pathname}${url.search}`] =
        (sent[`${request.method()} ${url.pathname}${url.search}`] ?? 0) + 1;
  };
  page.on('request', count);
  await act();
  await page.waitForLoadState('networkidle');
  page.off('request', count);
  return sent;
}

const twice = (sent: Record<string, number>) => Object.entries(sent).filter(([, times]) => times > 1);

test('each screen asks the service for each thing once on its first load, and after signing in', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { id, username } = await partnerMember(page.request, playwright, baseURL!, 'once');

  for (const path of ['/ui/developer', '/ui/developer/claim', '/ui/developer/scopes', '/ui/developer/reference']) {
    const sent = await sentDuring(page, () => page.goto(path));
    expect(Object.keys(sent).length, path).toBeGreaterThan(0);
    expect(twice(sent), path).toEqual([]);
  }
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Developer sign-in' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('secret-pass');
  const signedIn = await sentDuring(page, () => page.getByRole('button', { name: 'Sign in', exact: true }).click());
  expect(twice(signedIn), 'developer sign-in').toEqual([]);

  const admin = await (await browser.newContext({ baseURL })).newPage();
  await admin.goto('/ui/admin/login');
  await admin.getByLabel('Username').fill('admin');
  await admin.getByLabel('Password').fill(ADMIN_PASSWORD);
  const adminSignedIn = await sentDuring(admin, () =>
    admin.getByRole('button', { name: 'Sign in', exact: true }).click(),
  );
  expect(adminSignedIn).toHaveProperty(['GET /api/v1/context']);
  expect(twice(adminSignedIn), 'administrator sign-in').toEqual([]);
  const screens = [
    '/ui/admin/credentials',
    '/ui/admin/scopes',
    '/ui/admin/addons',
    '/ui/admin/roles',
    '/ui/admin/audit',
    `/ui/admin/audit/members/${id}`,
    '/ui/admin/webhooks',
    '/ui/admin/contract',
  ];
  for (const path of screens) {
    const sent = await sentDuring(admin, () => admin.goto(path));
    expect(sent, path).toHaveProperty(['GET /api/v1/context']);
    expect(twice(sent), path).toEqual([]);
  }
  await admin.context().close();
});
