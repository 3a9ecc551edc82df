import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { atBothWidths, mailedLink } from './story-helpers';

test('a developer who forgot the password gets back in by the mailed link, then keeps the account up to date', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const username = `acct${Date.now().toString(36)}`;
  const email = `${username}@example.com`;

  // Registered, and signed in on another computer too.
  const token = async (p: Page) =>
    ((await (await p.request.get('/api/v1/developer/session')).json()) as { data: { csrf_token: string } }).data
      .csrf_token;
  const register = await page.request.post('/api/v1/developer/register', {
    headers: { 'X-CSRF-Token': await token(page) },
    data: { username, password: 'first-password', email },
  });
  expect(register.status()).toBe(200);
  const elsewhere = await (await browser.newContext({ baseURL })).newPage();
  const login = await elsewhere.request.post('/api/v1/developer/login', {
    headers: { 'X-CSRF-Token': await token(elsewhere) },
    data: { username, password: 'first-password' },
  });
  expect(login.status()).toBe(200);
  await page.context().clearCookies();

  // Forgot the password: from the sign-in to the form that mails a link.
  await page.goto('/ui/developer/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Username or e-mail').fill(username);
  await page.getByRole('button', { name: 'Mail me a link' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'a link to choose a new password is on its way' }),
  ).toBeVisible();
  await atBothWidths(page, 'developer-forgot-password');

  // The mailed link opens the reset form; the new password is set once.
  const link = await mailedLink(email);
  expect(link.startsWith(`${baseURL}/ui/developer/reset?token=`)).toBe(true);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await atBothWidths(page, 'developer-reset-password');
  await page.getByLabel('New password', { exact: true }).fill('second-password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByRole('status')).toContainText(`The password of ${username} is set`);
  await atBothWidths(page, 'developer-reset-done');

  // The link is spent; the other computer was signed out.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('third-password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByRole('alert')).toContainText('already used');
  expect((await elsewhere.request.get('/api/v1/developer/account')).status()).toBe(401);

  // Signed in with the new password, the member changes nickname and password on the account page.
  await page.goto('/ui/developer/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('second-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Developer center' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await atBothWidths(page, 'developer-account');
  await page.getByLabel('Nickname (optional)').fill('Account Tester');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.getByLabel('Current password').fill('second-password');
  await page.getByLabel('New password', { exact: true }).fill('fourth-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  // This test's browser is the account's only session: nothing else to end, and the notice says so.
  await expect(page.getByRole('status').filter({ hasText: 'No other session was signed in.' })).toBeVisible();
  await atBothWidths(page, 'developer-account-changed');
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: /Hello, (Account Tester|acct)/ })).toBeVisible();
});
