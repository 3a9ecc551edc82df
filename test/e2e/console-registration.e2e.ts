import { expect, screen, test } from './fixtures';
import { post } from './partner-member';
import { DESKTOP, PHONE } from './story-helpers';

/** Registration's refusals at their fields, a failed load tried again, and an address with no screen. */

test('registration asks for one of e-mail and mobile, shows each refusal once at its field, and a failed load can be tried again', async ({
  page,
  baseURL,
  playwright,
}) => {
  const other = await playwright.request.newContext({ baseURL });
  await post(other, 'developer', '/developer/register', {
    username: 'casey',
    password: 'casey-password',
    mobile: '+4915112345679',
  });
  await other.dispose();

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto('/ui/developer/register');
    const contact = page.getByRole('group', { name: 'E-mail or mobile (at least one)' });
    await expect(contact).toContainText('Give an e-mail address or a mobile number, or both');
    await expect(page.locator('label[for="field-email"]')).toHaveText('E-mail');
    await expect(page.locator('label[for="field-mobile"]')).toHaveText('Mobile');
    await page.getByLabel('Username').fill('1x');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.locator('#field-username-issue')).toContainText('Username must be 3 to 32 characters');
    await expect(page.locator('#field-email-issue')).toContainText('Give at least one of email and mobile.');
    // The box under the form no longer repeats what the fields say.
    await expect(page.getByRole('alert')).toHaveText('Correct the fields marked above, then register again.');
    await expect(page.getByText(/Give at least one of email and mobile/)).toHaveCount(1);
    await screen(page, `fix-register-refused-${viewport.width}`);

    await page.getByLabel('Username').fill('casey');
    await page.getByLabel('Password', { exact: true }).fill('casey-password');
    await page.getByLabel('E-mail').fill('casey@example.com');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.locator('#field-username-issue')).toContainText('already registered');
    await expect(page.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/already registered/)).toHaveCount(1);
    await screen(page, `fix-register-taken-${viewport.width}`);
  }

  await page.setViewportSize(DESKTOP);
  await page.getByLabel('Username').fill('dana');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, dana' })).toBeVisible();
  // A pending application has no key yet: nothing is said about its expiry.
  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(page.locator('.status').first()).toHaveText('pending');
  await expect(page.getByText(/Key expires/)).toHaveCount(0);
  await screen(page, 'fix-dashboard-pending-1280');
  await page.setViewportSize(PHONE);
  await screen(page, 'fix-dashboard-pending-390');

  // The service out of reach once: the navigation stays, and "Try again" loads the dashboard.
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    let refused = false;
    await page.route('**/api/v1/developer/dashboard', async (route) => {
      if (refused) return route.continue();
      refused = true;
      return route.abort('connectionrefused');
    });
    await page.goto('/ui/developer/scopes');
    await expect(page.getByRole('alert')).toContainText('the service cannot be reached');
    await expect(page.getByRole('navigation', { name: 'Developer center' })).toBeVisible();
    await screen(page, `fix-load-failed-${viewport.width}`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'Request scopes' })).toBeVisible();
    await page.unrouteAll();
  }

  // An address the console has no screen for says so.
  await page.goto('/ui/developer/nowhere');
  await expect(page.getByRole('heading', { name: 'There is no page at this address' })).toBeVisible();
  await page.goto('/ui/nowhere');
  await expect(page.getByRole('heading', { name: 'There is no page at this address' })).toBeVisible();
  await page.getByRole('link', { name: 'the developer center' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, dana' })).toBeVisible();
});
