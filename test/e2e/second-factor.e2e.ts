import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { expect, signIn, test } from './fixtures';
import { atBothWidths } from './story-helpers';

/**
 * The app's code `steps` 30-second steps from now, computed by otplib from the key the console
 * showed. Near a step's end it waits for the next, so that the service reads the same step.
 */
async function appCode(secret: string, steps = 0): Promise<string> {
  if (Date.now() % 30_000 > 28_000) await new Promise((resolve) => setTimeout(resolve, 2_500));
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

const signOut = (page: Page) => page.getByRole('button', { name: 'Sign out', exact: true }).click();

test('a developer turns on an authenticator app in the console, then signs in with its code and with a recovery code', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const username = `tfa${Date.now().toString(36)}`;
  const token = async () =>
    ((await (await page.request.get('/api/v1/developer/session')).json()) as { data: { csrf_token: string } }).data
      .csrf_token;
  const register = await page.request.post('/api/v1/developer/register', {
    headers: { 'X-CSRF-Token': await token() },
    data: { username, password: 'tfa-password', email: `${username}@example.com` },
  });
  expect(register.status()).toBe(200);
  await page.context().clearCookies();

  // The account screen's card: off, then set up with the QR code and the key as text.
  await signIn(page, 'developer', username, 'tfa-password');
  await page.getByRole('navigation', { name: 'Developer center' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByTestId('totp-status')).toHaveText(/^Off/);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await atBothWidths(page, 'second-factor-enrolling');
  // The step before now: the sign-in's code below, at the current step, is then not a replay.
  await page.getByLabel('Code from the app').fill(await appCode(secret, -1));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = (await page.getByTestId('recovery-codes').textContent())!.split('\n');
  expect(codes).toHaveLength(10);
  await expect(page.getByText('shown once, now')).toBeVisible();
  await atBothWidths(page, 'second-factor-recovery-codes');
  await page.getByLabel('I have stored the recovery codes somewhere safe').check();
  await page.getByRole('button', { name: 'Done: hide the recovery codes' }).click();
  await expect(page.getByTestId('totp-status')).toContainText('10 of 10 recovery codes left');
  await atBothWidths(page, 'second-factor-on');

  // Signed out, the password alone is not enough: the app's code completes the sign-in.
  await signOut(page);
  await signIn(page, 'developer', username, 'tfa-password');
  await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
  await atBothWidths(page, 'second-factor-sign-in');
  await page.getByLabel('Code', { exact: true }).fill(await appCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('navigation', { name: 'Developer center' })).toBeVisible();

  // And once with a recovery code, which then counts one fewer.
  await signOut(page);
  await signIn(page, 'developer', username, 'tfa-password');
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('navigation', { name: 'Developer center' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByTestId('totp-status')).toContainText('9 of 10 recovery codes left');
});
