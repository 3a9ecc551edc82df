import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

async function openWebhooks(page: Page): Promise<void> {
  await page.goto('/ui/admin/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Webhooks' }).click();
}

/** The screen as it is, at 1280 px and at 390 px (`name-1280`, `name-390`), then back to 1280. */
async function screenAtBothWidths(page: Page, name: string): Promise<void> {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await screen(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an administrator registers a webhook, stores its secret, sees its failed delivery and retries it', async ({
  context,
  page,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
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
    await openWebhooks(page);
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('credential.applied').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await screenAtBothWidths(page, 'admin-webhook-secret');

    // Leaving before it is stored asks in the page; staying keeps the secret.
    await page.getByRole('link', { name: 'Credentials' }).click();
    const leaving = page.getByRole('dialog', { name: 'Leave without storing it?' });
    await expect(leaving).toContainText('signing secret is shown only this once');
    await screenAtBothWidths(page, 'admin-webhook-secret-leave-asked');
    await leaving.getByRole('button', { name: 'Stay' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(secret);
    await expect(page.getByRole('button', { name: 'Done: hide the secret' })).toBeDisabled();
    await page.getByLabel('I have stored the secret somewhere safe').check();
    await page.getByRole('button', { name: 'Done: hide the secret' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

    // A member applies: the event every webhook of credential.applied hears of.
    const session = await request.get('/api/v1/developer/session');
    const token = (await session.json()).data.csrf_token as string;
    const username = `hook${Date.now().toString(36)}`;
    expect(
      (
        await request.post('/api/v1/developer/register', {
          headers: { 'X-CSRF-Token': token },
          data: { username, password: 'secret1', email: 'h@example.com' },
        })
      ).status(),
    ).toBe(200);
    const again = (await (await request.get('/api/v1/developer/session')).json()).data.csrf_token as string;
    expect(
      (await request.post('/api/v1/developer/credential', { headers: { 'X-CSRF-Token': again }, data: {} })).status(),
    ).toBe(200);

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

test('an administrator sends a test, reads its request and answer, and edits the webhook', async ({ page }) => {
  // A receiver that says why it refuses.
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      received.push(body);
      res.statusCode = 418;
      res.end('{"why":"this receiver brews tea"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    await openWebhooks(page);
    await page.getByLabel('URL').fill(`${base}/tea`);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByLabel('I have stored the secret somewhere safe').check();
    await page.getByRole('button', { name: 'Done: hide the secret' }).click();

    await page.getByRole('button', { name: `Send a test to ${base}/tea` }).click();
    await expect(page.getByText('Test not delivered: the receiver answered 418.')).toBeVisible();
    expect(JSON.parse(received.at(-1)!)).toMatchObject({ type: 'ping' });
    const row = page.getByRole('row', { name: /ping/ });
    await expect(row).toContainText('dead');
    await row.getByRole('button', { name: /^Request and answer of ping/ }).click();
    await expect(page.getByText('{"why":"this receiver brews tea"}')).toBeVisible();
    await expect(page.getByText(/webhook-signature: v1,/)).toBeVisible();
    await screenAtBothWidths(page, 'admin-webhook-test-exchange');

    await page.getByRole('button', { name: `Edit ${base}/tea` }).click();
    const form = page.getByRole('form', { name: `Edit ${base}/tea` });
    await form.getByLabel('URL').fill('ftp://example.com/tea');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('URL must be http or https.')).toBeVisible();
    await screenAtBothWidths(page, 'admin-webhook-edit-refused');
    await form.getByLabel('URL').fill(`${base}/coffee`);
    await form.getByLabel('scope.requested').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByText(`Saved: ${base}/coffee now hears of credential.approved, scope.requested.`),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: `Send a test to ${base}/coffee` })).toBeVisible();
    await page.getByRole('button', { name: `Send a test to ${base}/coffee` }).click();
    await expect(page.getByRole('row', { name: /ping/ })).toHaveCount(2);

    // The secret rotated, after a question: the new one shown once, and the test send is signed with it.
    const firstSecretSigned = received.length;
    await page.getByRole('button', { name: `Rotate the secret of ${base}/coffee…` }).click();
    await page
      .getByRole('dialog', { name: "Rotate the webhook's secret?" })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = page.getByTestId('rotated-webhook-secret');
    await expect(rotated).toHaveText(/^whsec_/);
    await screenAtBothWidths(page, 'admin-webhook-rotated-secret');
    await page.getByLabel('I have stored the secret somewhere safe').check();
    await page.getByRole('button', { name: 'Done: hide the secret' }).click();
    await expect(rotated).toHaveCount(0);
    expect(received).toHaveLength(firstSecretSigned);

    // Removing asks in the page.
    await page.getByRole('button', { name: `Remove ${base}/coffee…` }).click();
    const removing = page.getByRole('dialog', { name: 'Remove the webhook?' });
    await screenAtBothWidths(page, 'admin-webhook-remove-asked');
    await removing.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText(`Removed the webhook ${base}/coffee.`)).toBeVisible();
  } finally {
    receiver.close();
  }
});
