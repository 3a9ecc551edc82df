import { expect, screen, test } from './fixtures';
import { CompiledService, startCompiledService } from './compiled-service';
import { freePort } from '../support/service-process';
import { CLIENT_ID, CLIENT_SECRET, startProvider, TestProvider } from '../access/sso/test-provider';

/**
 * Single sign-on in Chromium: the administrator clicks "Sign in with Test IdP", signs in at the
 * provider's own development login form (a real oidc-provider on loopback, as the jest tests start
 * it), consents, and lands in the console in the role group its groups claim maps to. On a service
 * of its own: the others sign in with passwords.
 */
let provider: TestProvider;
let service: CompiledService;
test.beforeAll(async () => {
  const port = await freePort();
  provider = await startProvider(`http://127.0.0.1:${port}/api/v1/admin/sso/callback`);
  service = await startCompiledService(
    '127.0.0.1',
    {
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_ROLE_GROUPS: 'platform-ops=Operators,platform-audit=Auditors',
      OIDC_DISPLAY_NAME: 'Test IdP',
    },
    port,
  );
});
test.afterAll(async () => {
  await service?.stop();
  await provider?.close();
});

test('an administrator signs in through the identity provider and lands in the role group its claim maps to', async ({
  page,
}) => {
  await provider.setGroups('olivia.ops', ['platform-ops']);
  await page.goto(`${service.base}/ui/admin/login`);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();

  // The provider's development login form, then its consent.
  await page.locator('input[name="login"]').fill('olivia.ops');
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();

  await page.waitForURL(`${service.base}/ui/**`);
  await page.getByRole('link', { name: 'Administrator console' }).first().click();
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByText('Signed in as olivia.ops')).toBeVisible();
  await screen(page, 'single-sign-on-signed-in');
  // In Operators (role group 1) with its permissions, as the console's own context says.
  const context = await (await page.request.get(`${service.base}/api/v1/context`)).json();
  expect(context.data.account).toMatchObject({ username: 'olivia.ops', role_id: 1, is_super: false });
  expect(context.data.account.permissions).toContain('credential.review');
});
