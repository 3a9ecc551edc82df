import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, signIn, test } from './fixtures';
import { atBothWidths } from './story-helpers';

const token = async (p: Page) =>
  ((await (await p.request.get('/api/v1/developer/session')).json()) as { data: { csrf_token: string } }).data
    .csrf_token;

test('an administrator gives a member who forgot their password a one-time password; it signs the member in, the old one and the old session stop working', async ({
  page,
  browser,
  baseURL,
}) => {
  const username = `otp${Date.now().toString(36)}`;
  const member = await (await browser.newContext({ baseURL })).newPage();
  const registered = await member.request.post('/api/v1/developer/register', {
    headers: { 'X-CSRF-Token': await token(member) },
    data: { username, password: 'forgotten-password', email: `${username}@example.com` },
  });
  expect(registered.status()).toBe(200);
  const { data } = (await registered.json()) as { data: { id: number } };

  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await page
    .getByRole('navigation', { name: 'Administrator console' })
    .getByRole('link', { name: 'Administrators' })
    .click();
  const card = page.getByRole('region', { name: "A member's password" });
  await card.getByLabel('Member id').fill('999999');
  await card.getByRole('button', { name: 'Give a one-time password' }).click();
  await page
    .getByRole('dialog', { name: 'Give member 999999 a one-time password?' })
    .getByRole('button', { name: 'Give a one-time password' })
    .click();
  await expect(card.getByText(/No member has the id 999999/).first()).toBeVisible();

  await card.getByLabel('Member id').fill(`#${data.id}`);
  await expect(card.getByText(/No member has the id 999999/)).toHaveCount(0);
  await card.getByRole('button', { name: 'Give a one-time password' }).click();
  await atBothWidths(page, 'admin-member-password-question');
  await page
    .getByRole('dialog', { name: `Give member ${data.id} a one-time password?` })
    .getByRole('button', { name: 'Give a one-time password' })
    .click();
  const shown = page.getByTestId('member-one-time-password');
  await expect(shown).toBeVisible();
  const password = (await shown.textContent())!;
  await atBothWidths(page, 'admin-member-one-time-password');
  await page.getByLabel('I have stored the password somewhere safe').check();
  await page.getByRole('button', { name: 'Done: hide the password' }).click();
  await expect(shown).toHaveCount(0);

  // The member's old session ended; the old password no longer signs in, the one-time one does.
  await member.goto('/ui/developer');
  await expect(member.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await signIn(member, 'developer', username, 'forgotten-password');
  await expect(member.getByRole('alert')).toBeVisible();
  await signIn(member, 'developer', username, password);
  await expect(member).toHaveURL(/\/ui\/developer\/?$/);
});
