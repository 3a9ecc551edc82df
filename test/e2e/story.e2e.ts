import { readFileSync } from 'node:fs';
import { ADMIN_PASSWORD, expect, screen, signIn, test } from './fixtures';
import type { Browser, Page } from '@playwright/test';

/** A review queue searched for one member, as a reviewer does in a long one. */
async function findInQueue(admin: Page, username: string) {
  await admin.getByLabel('Search by username or API id').fill(username);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin).toHaveURL(new RegExp(`[?&]q=${username}(&|$)`));
}

async function adminPage(browser: Browser, baseURL: string) {
  const page = await (await browser.newContext({ baseURL, timezoneId: 'UTC' })).newPage();
  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();
  return page;
}

test('a developer gets a key through the console, an administrator reviews it, the auditor replays it', async ({
  page,
  browser,
  baseURL,
  context,
  request,
}) => {
  // Every screen of the story, in two browsers, each checked by axe: close to a minute on two quiet
  // cores, over two at a load of 20 (the full run of 2026-12-02 reached its last screens at 120 s).
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  // The developer arrives at the root: the front door says what the platform is, and leads to sign-in, with a way to register.
  await page.goto('/');
  await expect(page).toHaveURL(/\/ui\/$/);
  await expect(page.getByRole('heading', { name: 'Platform API' })).toBeVisible();
  await screen(page, 'landing');
  await page.getByRole('main').getByRole('link', { name: 'Developer center' }).click();
  await expect(page).toHaveURL(/\/ui\/developer$/);
  await expect(page.getByRole('heading', { name: 'Developer sign-in' })).toBeVisible();
  await screen(page, 'developer-sign-in');

  await page.getByRole('link', { name: 'Register as a developer' }).click();
  await expect(page.getByText('3 to 32 characters: a letter first, then letters, digits, _ . or -')).toBeVisible();
  await page.getByLabel('Username').fill('1x');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.locator('#field-username-issue')).toContainText('Username must be 3 to 32 characters');
  await screen(page, 'developer-register-refused');

  await page.getByLabel('Username').fill('alice');
  await page.getByLabel('Password', { exact: true }).fill('alice-password');
  await page.getByLabel('E-mail').fill('alice@example.com');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, alice' })).toBeVisible();
  await expect(page.locator('.status').first()).toHaveText('none');
  await screen(page, 'developer-dashboard-new');

  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Application sent' })).toBeVisible();
  await expect(page.locator('.status').first()).toHaveText('pending');
  // "As of" has whole seconds: one second after the application, strictly before the approval.
  await page.waitForTimeout(1100);
  const beforeApproval = new Date().toISOString().slice(0, 19);
  await page.waitForTimeout(1100);

  // The administrator approves the application from the queue.
  const admin = await adminPage(browser, baseURL!);
  await expect(admin.getByRole('heading', { name: 'Credential applications' })).toBeVisible();
  // The queue is shared with the other stories (hundreds pending when one of them stops halfway),
  // listed by member id, alice last: the reviewer searches for her, as with any long queue.
  await findInQueue(admin, 'alice');
  await expect(admin.getByRole('cell', { name: /^alice/ })).toBeVisible();
  await screen(admin, 'admin-credential-queue');
  await expect(admin).toHaveTitle('Credential applications – Administrator console – Platform');
  await admin.getByRole('button', { name: 'Approve alice', exact: true }).click();
  await expect(admin.getByRole('status')).toContainText("Approved alice's application");
  // The button went with alice's row: focus is on what was done, not back at the page's start.
  await expect(admin.getByRole('status')).toBeFocused();
  // Other tests' members may wait in the same queue: alice's row is what must leave it.
  await expect(admin.getByRole('button', { name: 'Approve alice', exact: true })).toHaveCount(0);
  // The outcome belongs to the list it was decided in: another status filter clears it.
  // "all" and each status carry their count: chosen by value, not by words.
  await admin.getByLabel('Status').selectOption('');
  // The search stays with the filter: alice's row, approved now.
  await expect(admin.getByRole('cell', { name: /^alice/ })).toBeVisible();
  await expect(admin.locator('.notice.done')).toHaveCount(0);
  await screen(admin, 'fix-queue-filter-changed');

  // The developer claims: the key shows once, copies, and leaving before confirming asks first.
  await page.reload();
  // Approved without an expiry, on a service without KEY_LIFETIME_DAYS: the key never expires.
  await expect(page.getByTestId('expires-at')).toHaveText('never');
  await page.getByRole('link', { name: 'Claim your key' }).click();
  await screen(page, 'developer-claim');
  await page.getByRole('button', { name: 'Claim the key' }).click();
  const apikey = (await page.getByTestId('apikey').textContent())!;
  const apiid = (await page.getByTestId('apiid').textContent())!;
  expect(apikey).toMatch(/^sk_/);
  await page.getByRole('button', { name: 'Copy the key' }).click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  // Runs in the page, where the clipboard is; the root tsconfig has no DOM types.
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apikey);
  await screen(page, 'developer-key-once');

  // Leaving asks in the page; staying keeps the key.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  const leaving = page.getByRole('dialog', { name: 'Leave without storing it?' });
  await expect(leaving).toContainText('shown only this once');
  await screen(page, 'developer-key-leave-asked');
  await leaving.getByRole('button', { name: 'Stay' }).click();
  await expect(leaving).toHaveCount(0);
  await expect(page.getByTestId('apikey')).toHaveText(apikey);
  await expect(page.getByRole('button', { name: 'Done: hide the key' })).toBeDisabled();
  await page.getByLabel('I have stored the key somewhere safe').check();
  await page.getByRole('button', { name: 'Done: hide the key' }).click();
  await expect(page.locator('.status').first()).toHaveText('active');
  await expect(page.getByText(apikey)).toHaveCount(0);
  await page.goto('/ui/developer/claim');
  await expect(page.getByText('You have claimed your key already.', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Claim the key' })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: 'Rotate the key on your dashboard' })).toHaveAttribute(
    'href',
    '/ui/developer',
  );

  // The partner reference: the open endpoints with a curl call naming this member's API id.
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByText(`X-API-ID: ${apiid}`).first()).toBeVisible();
  await screen(page, 'developer-reference');

  // A scope request, with its reason and counter.
  await page.getByRole('link', { name: 'Request scopes' }).click();
  await page.getByLabel(/addons\.read/).check();
  await page.getByLabel('Purpose of use').fill('List the add-ons on our partner site');
  await expect(page.getByText('36 / 500 characters')).toBeVisible();
  await screen(page, 'developer-scope-request');
  await page.getByRole('button', { name: 'Request' }).click();
  await expect(page.getByRole('cell', { name: 'List the add-ons on our partner site' })).toBeVisible();

  const openAddons = () => request.get('/api/v1/open/addons', { headers: { 'X-API-ID': apiid, 'X-API-Key': apikey } });
  expect((await openAddons()).status()).toBe(403);

  await admin.getByRole('link', { name: 'Scope requests' }).click();
  await findInQueue(admin, 'alice');
  await screen(admin, 'admin-scope-queue');
  await admin.getByRole('button', { name: 'Approve addons.read for alice', exact: true }).click();
  // Other stories' members may wait in the same queue: alice's request is what must leave it.
  await expect(admin.getByRole('status')).toContainText('Approved addons.read for alice');
  await expect(admin.getByRole('button', { name: 'Approve addons.read for alice' })).toHaveCount(0);

  expect((await openAddons()).status()).toBe(200);
  await page.reload();
  await expect(page.locator('tbody .status')).toHaveText('approved');
  // Each open-API call counts on the key's use, shown as a 30-day chart.
  await expect(page.getByTestId('usage-summary')).toContainText(/[1-9]\d* calls in 30 days/);
  await expect(page.getByRole('region', { name: 'Calls per day, as numbers' }).getByRole('table')).toBeVisible();
  await screen(page, 'developer-dashboard-active');

  // Rotation keeps the old key an hour by default and asks first: saying no changes nothing.
  await expect(page.getByLabel('Grace period for the old key')).toHaveValue('3600');
  await page.getByRole('button', { name: 'Rotate the key…' }).click();
  const asked = page.getByRole('dialog', { name: 'Rotate the API key?' });
  await expect(asked).toContainText('The old key stops working after the grace period (one hour)');
  await screen(page, 'developer-rotate-asked');
  await page.keyboard.press('Escape');
  await expect(asked).toHaveCount(0);
  await expect(page.getByTestId('apikey')).toHaveCount(0);
  expect((await openAddons()).status()).toBe(200);

  // Confirmed: the new key shows once, and both keys work during the grace period.
  await page.getByRole('button', { name: 'Rotate the key…' }).click();
  await asked.getByRole('button', { name: 'Rotate' }).click();
  const rotated = (await page.getByTestId('apikey').textContent())!;
  expect(rotated).not.toBe(apikey);
  await expect(page.getByText(/The old key is accepted until/)).toBeVisible();
  await screen(page, 'developer-rotated');
  await page.getByLabel('I have stored the key somewhere safe').check();
  await page.getByRole('button', { name: 'Done: hide the key' }).click();
  await expect(page.getByText(rotated)).toHaveCount(0);
  const withKey = (key: string) =>
    request.get('/api/v1/open/addons', { headers: { 'X-API-ID': apiid, 'X-API-Key': key } });
  expect((await withKey(rotated)).status()).toBe(200);
  expect((await withKey(apikey)).status()).toBe(200);

  // The administrator revokes the credential with a reason; no key works any more.
  await admin.getByRole('link', { name: 'Credentials' }).click();
  await admin.getByLabel('Status').selectOption('active');
  await findInQueue(admin, 'alice');
  await admin.getByRole('button', { name: "Revoke alice's credential…" }).click();
  await admin.getByLabel("Reason for revoking alice's credential").fill('Key posted in a public repository');
  await screen(admin, 'admin-revoke');
  await admin.getByRole('button', { name: "Revoke alice's credential", exact: true }).click();
  await expect(admin.getByRole('cell', { name: /^alice/ })).toHaveCount(0);
  expect((await openAddons()).status()).toBe(401);
  expect((await withKey(rotated)).status()).toBe(401);

  // The auditor finds alice by API id, sees every step, and replays the state before the approval.
  await admin.getByRole('link', { name: 'Audit' }).click();
  await admin.getByLabel('Member id, username or API id').fill(apiid);
  await admin.getByRole('button', { name: 'Show the history' }).click();
  const timeline = admin.locator('.timeline');
  for (const step of [
    'applied for API credentials',
    'approved the application',
    'claimed the credential, API id ak_',
    'requested the scope addons.read',
    'approved the scope addons.read',
    'rotated the key of API id ak_',
    'revoked the credential',
  ]) {
    await expect(timeline).toContainText(step);
  }
  await expect(timeline).toContainText('by administrator admin');
  await expect(timeline).toContainText('Key posted in a public repository');
  await screen(admin, 'auditor-timeline');

  await admin.getByLabel('As of (optional)').fill(beforeApproval);
  await admin.getByRole('button', { name: 'Show the history' }).click();
  await expect(admin.getByTestId('state-as-of')).toContainText('credential pending');
  await expect(timeline).not.toContainText(/approved/i);
  await screen(admin, 'auditor-as-of');

  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Download the NDJSON export' }).click();
  expect((await download).suggestedFilename()).toBe('platform-events.ndjson');
  await expect(admin.getByTestId('export-saved')).toHaveText('Downloaded platform-events.ndjson.');
  const lines = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type?: string; more?: boolean });
  expect(lines.at(-1)).toMatchObject({ more: false });
  expect(lines.some((l) => l.type === 'CredentialRevoked')).toBe(true);
});

test('a refused export is said at its field, and nothing is downloaded', async ({ browser, baseURL }) => {
  const admin = await adminPage(browser, baseURL!);
  await admin.goto('/ui/admin/audit');
  const downloads: string[] = [];
  admin.on('download', (d) => void downloads.push(d.suggestedFilename()));
  await admin.getByLabel('Resume after position (optional)').fill('garbage');
  await admin.getByRole('button', { name: 'Download the NDJSON export' }).click();
  await expect(admin.locator('#field-from-issue')).toContainText(
    'Resume after position is not a position of this event log',
  );
  await expect(admin.getByLabel('Resume after position (optional)')).toBeFocused();
  await screen(admin, 'auditor-export-refused');
  expect(downloads).toEqual([]);
});
