import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, signIn, test } from './fixtures';

/**
 * Issue 36, second round: the scope queue at scale, sessions that keep work, stale decisions that
 * say who decided, usage you can read, and the audit search with its deep links.
 */

const API = '/api/v1';
const PASSWORD = 'secret-36';
const tag = Date.now().toString(36);

async function token(client: APIRequestContext, realm: 'developer' | 'admin' = 'developer'): Promise<string> {
  return (await (await client.get(`${API}/${realm}/session`)).json()).data.csrf_token as string;
}

async function post(client: APIRequestContext, path: string, data: object, realm: 'developer' | 'admin' = 'developer') {
  const res = await client.post(`${API}${path}`, { headers: { 'X-CSRF-Token': await token(client, realm) }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data;
}

/** A member with an active credential who asked for both scopes; answers the member's client, id, API id and key. */
async function activeMember(newContext: () => Promise<APIRequestContext>, admin: APIRequestContext, username: string) {
  const client = await newContext();
  const member = await post(client, '/developer/register', {
    username,
    password: PASSWORD,
    email: `${username}@example.com`,
  });
  await post(client, '/developer/credential', {});
  await post(admin, `/credentials/${member.id}/approve`, {}, 'admin');
  const claimed = await post(client, '/developer/claim', {});
  await post(client, '/developer/scopes', {
    scopes: ['addons.read', 'member-groups.read'],
    reason: 'show the catalogue on our site',
  });
  return { client, id: member.id as number, apiid: claimed.apiid as string, apikey: claimed.apikey as string };
}

async function both(page: Page, name: string) {
  await screen(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await screen(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('issue 36: scope queue at scale, sessions that keep work, stale decisions, usage, audit search', async ({
  page,
  playwright,
  baseURL,
}) => {
  const newContext = () => playwright.request.newContext({ baseURL });
  const admin = await newContext();
  await post(admin, '/admin/login', { username: 'admin', password: ADMIN_PASSWORD }, 'admin');
  const names = ['ada', 'bob', 'cy'].map((n) => `${n}${tag}`);
  const members = [];
  for (const name of names) members.push(await activeMember(newContext, admin, name));
  const [ada, bob, cy] = members as [
    Awaited<ReturnType<typeof activeMember>>,
    Awaited<ReturnType<typeof activeMember>>,
    Awaited<ReturnType<typeof activeMember>>,
  ];

  // The scope queue: counts per status, a search in the address, two requests approved at once.
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  await page.getByRole('link', { name: 'Scope requests' }).click();
  await expect(page.getByLabel('Status').locator('option:checked')).toHaveText(/^pending \(\d+\)$/);
  await page.getByLabel('Search by username or API id').fill(names[0]!);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${names[0]}`));
  await expect(page.getByLabel('Status').locator('option:checked')).toHaveText('pending (2)');
  await page.getByRole('checkbox', { name: `Select addons.read for ${names[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select member-groups.read for ${names[0]}` }).check();
  await both(page, 'c36-scope-queue-selected');
  await page.getByRole('button', { name: 'Approve 2 selected scope requests' }).click();
  await expect(page.getByRole('status')).toContainText('Approved 2 scope requests.');
  await page.reload();
  await expect(page.getByLabel('Search by username or API id')).toHaveValue(names[0]!);

  // The session ends while a reason is typed: signing in again over the screen keeps it.
  await page.goto(`/ui/admin/scopes?q=${names[1]}`);
  await page.getByRole('button', { name: `Reject addons.read for ${names[1]}…` }).click();
  await page.getByLabel(`Reason for rejecting addons.read for ${names[1]}`).fill('the purpose does not name the site');
  await page.context().clearCookies();
  await page.getByRole('button', { name: `Reject addons.read for ${names[1]}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Your session has ended: sign in again' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Username')).toBeFocused();
  await both(page, 'c36-sign-in-again');
  await dialog.getByLabel('Username').fill('admin');
  await dialog.getByLabel('Password').fill(ADMIN_PASSWORD);
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/ui/admin/scopes\\?q=${names[1]}`));
  await expect(page.getByLabel(`Reason for rejecting addons.read for ${names[1]}`)).toHaveValue(
    'the purpose does not name the site',
  );
  await page.getByRole('button', { name: `Reject addons.read for ${names[1]}`, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rejected' })).toContainText(
    `Rejected addons.read for ${names[1]}.`,
  );

  // Another administrator decides while this one types: the refusal says who and when, and keeps the text.
  await page.getByRole('button', { name: `Reject member-groups.read for ${names[1]}…` }).click();
  await page.getByLabel(`Reason for rejecting member-groups.read for ${names[1]}`).fill('not needed for a catalogue');
  await post(admin, `/credentials/${bob.id}/scopes/member-groups.read/approve`, {}, 'admin');
  await page.getByRole('button', { name: `Reject member-groups.read for ${names[1]}`, exact: true }).click();
  const stale = page.getByRole('alert');
  await expect(stale).toContainText('Too late: admin decided it on');
  await expect(stale).toContainText('What you typed is kept here: “not needed for a catalogue”');
  await both(page, 'c36-stale-refusal');

  // Usage: calls with the previous key and the current one after a rotation, read on the dashboard.
  await post(admin, `/credentials/${cy.id}/scopes/addons.read/approve`, {}, 'admin');
  const call = (key: string) =>
    page.request.get(`${API}/open/addons`, { headers: { 'X-API-ID': cy.apiid, 'X-API-Key': key } });
  for (let i = 0; i < 3; i++) expect((await call(cy.apikey)).status()).toBe(200);
  const rotated = await post(cy.client, '/developer/rotate', { grace_seconds: 7200 });
  expect((await call(cy.apikey)).status()).toBe(200);
  expect((await call(rotated.apikey)).status()).toBe(200);
  expect(
    (
      await page.request.get(`${API}/open/member-groups`, {
        headers: { 'X-API-ID': cy.apiid, 'X-API-Key': rotated.apikey },
      })
    ).status(),
  ).toBe(403);
  const developer = await (await page.context().browser()!.newContext({ baseURL })).newPage();
  await developer.setViewportSize({ width: 1280, height: 800 });
  await signIn(developer, 'developer', names[2]!, PASSWORD);
  await expect(developer.getByTestId('usage-summary')).toContainText('6 calls in 30 days, 1 refused');
  await expect(developer.getByRole('table', { name: /Calls per day/ })).toBeVisible();
  await expect(developer.getByRole('list', { name: 'Legend' })).toContainText('Answered');
  await expect(developer.getByTestId('previous-key-stops')).toContainText('in 2 hours');
  await developer.getByRole('heading', { name: 'Use of your key' }).scrollIntoViewIfNeeded();
  await both(developer, 'c36-usage');

  // Audit search across members, with deep links to a member's timeline and to an instant.
  await page.goto('/ui/admin/audit');
  await page.getByLabel('Event type').selectOption('ScopeApproved');
  await page.getByLabel('Actor (username)').fill('admin');
  await page.getByRole('button', { name: 'Search events' }).click();
  await expect(page).toHaveURL(/type=ScopeApproved/);
  const found = page.getByRole('row', { name: new RegExp(`Timeline of #${ada.id}`) }).first();
  await expect(found).toBeVisible();
  await both(page, 'c36-audit-search');
  await found.getByRole('link', { name: 'State then' }).click();
  await expect(page).toHaveURL(new RegExp(`/ui/admin/audit/members/${ada.id}\\?as_of=`));
  await expect(page.getByTestId('state-as-of')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('state-as-of')).toBeVisible();
  await expect(page.getByRole('heading', { name: new RegExp(names[0]!) })).toBeVisible();
  await both(page, 'c36-audit-instant');
});
