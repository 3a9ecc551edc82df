import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';
import { CompiledService, startCompiledService } from './compiled-service';

/**
 * An administrator adds a passkey on their account screen, signs out, and signs in with it: the
 * passkey made and used by Chromium's own virtual authenticator (DevTools' WebAuthn domain), which
 * checks the origin and the RP ID as a real browser does. On a service of its own at `localhost`:
 * browsers refuse an IP address as a relying party.
 */
let service: CompiledService;
test.beforeAll(async () => {
  service = await startCompiledService('localhost');
});
test.afterAll(async () => {
  await service?.stop();
});

test('an administrator adds a passkey, signs out, and signs in with it', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await page.goto(`${service.base}/ui/admin/login`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(page.getByText('You have no passkey yet.')).toBeVisible();

  await page.getByLabel('Name of the new passkey').fill('this laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey "this laptop" added.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your passkeys' })).toContainText('this laptop');
  await screen(page, 'passkeys-added');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Administrator sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // Signed in without a password: the console's own-account screen names the administrator.
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByText('Signed in as admin')).toBeVisible();
  await screen(page, 'passkeys-signed-in');
});
