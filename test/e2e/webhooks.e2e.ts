import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

test('an administrator registers a webhook, sees its failed delivery and retries it', async ({ page, request }) => {
  // A receiver that refuses the first delivery and takes the next.
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.statusCode = received === 1 ? 500 : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    await page.goto('/ui/admin/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('credential.applied').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);

    // A member applies: the event every webhook of credential.applied hears of.
    const session = await request.get('/api/v1/developer/session');
    const token = (await session.json()).data.csrf_token as string;
    const username = `hook${Date.now().toString(36)}`;
    expect((await request.post('/api/v1/developer/register', { headers: { 'X-CSRF-Token': token }, data: { username, password: 'secret1', email: 'h@example.com' } })).status()).toBe(200);
    const again = ((await (await request.get('/api/v1/developer/session')).json()).data.csrf_token) as string;
    expect((await request.post('/api/v1/developer/credential', { headers: { 'X-CSRF-Token': again }, data: {} })).status()).toBe(200);

    await expect.poll(() => received, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const row = page.getByRole('row', { name: /credential\.applied/ });
    await expect(async () => {
      await page.getByRole('button', { name: `Deliveries of ${url}` }).click();
      await expect(row.first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await screen(page, 'admin-webhook-deliveries');
    // The next automatic attempt is an hour away (WEBHOOK_RETRY_SCHEDULE=1h): only the button sends it now.
    await expect(row.first()).toContainText('failed');
    await page.getByRole('button', { name: 'Retry credential.applied' }).first().click();
    await expect.poll(() => received, { timeout: 10_000 }).toBe(2);
  } finally {
    receiver.close();
  }
});
