import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

test("a member's history has an address of its own: a search puts it in the URL, a shared link opens it after sign-in, a reload keeps it", async ({
  page,
  browser,
  baseURL,
}) => {
  const developer = await (await browser.newContext({ baseURL })).newPage();
  await developer.goto('/ui/developer/register');
  await developer.getByLabel('Username').fill('dora');
  await developer.getByLabel('Password', { exact: true }).fill('dora-password');
  await developer.getByLabel('E-mail').fill('dora@example.com');
  await developer.getByRole('button', { name: 'Register' }).click();
  await developer.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(developer.locator('.status').first()).toHaveText('pending');

  const signIn = async (on: Page) => {
    await on.getByLabel('Username').fill('admin');
    await on.getByLabel('Password').fill(ADMIN_PASSWORD);
    await on.getByRole('button', { name: 'Sign in', exact: true }).click();
  };
  await page.goto('/ui/admin/audit');
  await signIn(page);
  await page.getByLabel('Member id, username or API id').fill('dora');
  await page.getByRole('button', { name: 'Show the history' }).click();
  await expect(page).toHaveURL(/\/ui\/admin\/audit\/members\/[0-9]+$/);
  await expect(page.getByTestId('history-found')).toHaveText(/^History of dora \(member #[0-9]+\): 2 events\.$/);
  // The same screen shows another member: focus stays at the form.
  await expect(page.getByRole('button', { name: 'Show the history' })).toBeFocused();

  const shared = await (await browser.newContext({ baseURL })).newPage();
  await shared.goto(page.url());
  await signIn(shared);
  await expect(shared.getByTestId('history-found')).toHaveText(/^History of dora /);
  await expect(shared).toHaveURL(page.url());
  await shared.reload();
  await expect(shared.getByTestId('history-found')).toHaveText(/^History of dora /);
  await screen(shared, 'admin-member-history');
});
