import type { APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { ADMIN_PASSWORD, expect, signIn, test } from './fixtures';
import { atBothWidths } from './story-helpers';
import { webhookReceiver } from '../support/webhook-receiver';

/** The super administrator's session on its own request context (cookies apart from the page's). */
async function asAdministrator(request: APIRequestContext) {
  const token = async () => (await (await request.get('/api/v1/admin/session')).json()).data.csrf_token as string;
  await request.post('/api/v1/admin/login', {
    headers: { 'X-CSRF-Token': await token() },
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  const csrf = await token();
  return (path: string, data: object = {}) =>
    request.post(`/api/v1${path}`, { headers: { 'X-CSRF-Token': csrf }, data });
}

test('a developer registers a webhook in the developer center and their server receives credential.approved, signed', async ({
  page,
  request,
}) => {
  // The developer's own server: a real local HTTP receiver.
  const receiver = await webhookReceiver(204, { path: '/platform-events' });
  const { url, received } = receiver;
  try {
    // A developer registers in the browser and applies.
    const username = `dwh${Date.now().toString(36)}`;
    await page.goto('/ui/developer/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByLabel('E-mail').fill(`${username}@example.com`);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: `Hello, ${username}` })).toBeVisible();
    await page.getByRole('button', { name: 'Apply for API credentials' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Application sent' })).toBeVisible();

    // The Webhooks screen: an empty list, the form with the developer's own event types.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByText('No webhook yet.')).toBeVisible();
    await expect(page.getByLabel('credential.applied')).toHaveCount(0);
    await atBothWidths(page, 'developer-webhooks-empty');
    await page.getByLabel('URL').fill(url);
    await expect(page.getByLabel('credential.approved')).toBeChecked();
    await page.getByRole('button', { name: 'Register' }).click();
    const shown = page.getByTestId('developer-webhook-secret');
    await expect(shown).toHaveText(/^whsec_/);
    const secret = (await shown.textContent())!;
    await atBothWidths(page, 'developer-webhook-secret');
    await page.getByLabel('I have stored the secret somewhere safe').check();
    await page.getByRole('button', { name: 'Done: hide the secret' }).click();
    await expect(shown).toHaveCount(0);
    await expect(page.getByText(url)).toBeVisible();

    // An administrator approves: the developer's server is told, signed with the secret.
    const admin = await asAdministrator(request);
    const member = (await (await page.request.get('/api/v1/developer/dashboard')).json()).data.member.id as number;
    expect((await admin(`/credentials/${member}/approve`)).status()).toBe(200);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const payload = new Webhook(secret).verify(received[0]!.body, received[0]!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'credential.approved', data: { member_id: member, username } });

    // The delivery is listed as delivered; a test send reaches the same server.
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await expect(page.getByRole('cell', { name: 'credential.approved' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'delivered' })).toBeVisible();
    await page.getByRole('button', { name: `Send a test to ${url}` }).click();
    await expect(page.getByText('Test sent: your receiver answered 204.')).toBeVisible();
    expect(received).toHaveLength(2);
    await atBothWidths(page, 'developer-webhook-deliveries');

    // The secret rotated: the new one shown once; the old one signs nothing more.
    await page.getByRole('button', { name: `Rotate the secret of ${url}…` }).click();
    await page
      .getByRole('dialog', { name: "Rotate the webhook's secret?" })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    await expect(shown).toHaveText(/^whsec_/);
    expect(await shown.textContent()).not.toBe(secret);
    await page.getByLabel('I have stored the secret somewhere safe').check();
    await page.getByRole('button', { name: 'Done: hide the secret' }).click();
  } finally {
    await receiver.close();
  }
});

test('a developer signed in with a one-time password must choose their own first; then the dashboard shows the key’s recent calls', async ({
  page,
  request,
}) => {
  const username = `otp${Date.now().toString(36)}`;
  const session = async () => (await (await page.request.get('/api/v1/developer/session')).json()).data.csrf_token;
  await page.request.post('/api/v1/developer/register', {
    headers: { 'X-CSRF-Token': await session() },
    data: { username, password: 'secret1', email: `${username}@example.com` },
  });
  const member = (await (await page.request.get('/api/v1/developer/dashboard')).json()).data.member.id as number;
  await page.request.post('/api/v1/developer/credential', { headers: { 'X-CSRF-Token': await session() }, data: {} });
  const admin = await asAdministrator(request);
  await admin(`/credentials/${member}/approve`);
  const claimed = await page.request.post('/api/v1/developer/claim', {
    headers: { 'X-CSRF-Token': await session() },
    data: {},
  });
  const { apiid, apikey } = (await claimed.json()).data as { apiid: string; apikey: string };
  // Partner calls: one without a scope (403), one with a mistyped key (401).
  await request.get('/api/v1/open/addons', { headers: { 'X-API-ID': apiid, 'X-API-Key': apikey } });
  await request.get('/api/v1/open/addons', { headers: { 'X-API-ID': apiid, 'X-API-Key': `${apikey.slice(0, -1)}x` } });

  const reset = await admin(`/members/${member}/password-reset`);
  const oneTime = (await reset.json()).data.password as string;
  await signIn(page, 'developer', username, oneTime);
  await expect(page.getByRole('heading', { name: 'Choose your own password' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  await atBothWidths(page, 'developer-choose-password');
  await page.getByLabel('One-time password').fill(oneTime);
  await page.getByLabel('New password', { exact: true }).fill('my-own-password');
  await page.getByLabel('New password again').fill('my-own-password');
  await page.getByRole('button', { name: 'Set my password' }).click();
  await expect(page.getByRole('heading', { name: 'Recent calls' })).toBeVisible();
  const calls = page.getByTestId('recent-calls');
  await expect(calls.getByRole('row')).toHaveCount(3);
  await expect(calls.getByText('wrong key')).toBeVisible();
  await atBothWidths(page, 'developer-recent-calls');
});
