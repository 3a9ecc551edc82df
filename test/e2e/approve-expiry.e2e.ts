import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

const DAY_MS = 86_400_000;

test('an administrator approves an application with a 30-day expiry, and the credential carries it', async ({
  page,
  request,
}) => {
  // A member applies through the API: the story is the administrator's.
  const token = async () => (await (await request.get('/api/v1/developer/session')).json()).data.csrf_token as string;
  const username = `exp${Date.now().toString(36)}`;
  expect(
    (
      await request.post('/api/v1/developer/register', {
        headers: { 'X-CSRF-Token': await token() },
        data: { username, password: 'secret1', email: 'e@example.com' },
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await request.post('/api/v1/developer/credential', { headers: { 'X-CSRF-Token': await token() }, data: {} })
    ).status(),
  ).toBe(200);

  await page.goto('/ui/admin/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Credential applications' })).toBeVisible();

  // The service runs without KEY_LIFETIME_DAYS: the choice starts on "never", marked as the default.
  const expiry = page.getByLabel(`Key expires for ${username}`);
  await expect(expiry).toHaveValue('never');
  await expect(expiry.locator('option:checked')).toHaveText('never (default)');
  await expiry.selectOption({ label: 'in 30 days' });
  await screen(page, 'admin-approve-expiry');
  await page.setViewportSize({ width: 390, height: 844 });
  await screen(page, 'admin-approve-expiry-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  const before = Date.now();
  await page.getByRole('button', { name: `Approve ${username}` }).click();
  const notice = page.getByRole('status');
  await expect(notice).toContainText(`Approved ${username}'s application: the key expires on`);
  await expect(notice).toBeFocused();

  // The credential carries the expiry: 30 days from the approval, in the member's own view.
  const credential = (await (await request.get('/api/v1/developer/dashboard')).json()).data.credential as {
    status: string;
    expires_at: string;
  };
  expect(credential.status).toBe('approved');
  const lifetime = Date.parse(credential.expires_at) - before;
  expect(lifetime).toBeGreaterThanOrEqual(30 * DAY_MS - 1000);
  expect(lifetime).toBeLessThanOrEqual(30 * DAY_MS + 60_000);

  // The row shows it, under the approved ones.
  await page.getByLabel('Status').selectOption('approved');
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row.locator('td[data-label="Expires"] time')).toHaveAttribute('datetime', credential.expires_at);
  await screen(page, 'admin-approved-with-expiry');
});
