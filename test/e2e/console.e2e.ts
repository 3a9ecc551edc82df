import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Each screen, loaded, is no wider than the viewport: nothing to scroll sideways. */
async function fitsNarrow(page: Page, area: string, screens: [path: string, name: string][]) {
  for (const [path, name] of screens) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: area })).toBeVisible();
    await expect(page.locator('.loading')).toHaveCount(0);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screen(page, name);
  }
}

test('the console is served with its caching and content security policy; deep links load it', async ({
  request,
  page,
}) => {
  const root = await request.get('/', { maxRedirects: 0 });
  expect(root.status()).toBe(302);
  expect(root.headers().location).toBe('/ui/');

  const index = await request.get('/ui/');
  expect(index.headers()['cache-control']).toBe('no-cache');
  expect(index.headers()['content-security-policy']).toContain("default-src 'self'");
  const script = /<script type="module" crossorigin src="([^"]+)"/.exec(await index.text())![1]!;
  const asset = await request.get(script);
  expect(asset.headers()['cache-control']).toBe('max-age=31536000, immutable');

  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto('/ui/admin/addons');
  await expect(page.getByRole('heading', { name: 'Administrator sign-in' })).toBeVisible();
  // The policy refused nothing the console needs (a violation is a console error).
  expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
});

test('an expired session asks to sign in again over the screen, which stays as it was', async ({ page, context }) => {
  await page.goto('/ui/developer/register');
  await page.getByLabel('Username').fill('bob');
  await page.getByLabel('Password', { exact: true }).fill('bob-password');
  await page.getByLabel('Mobile').fill('+4915112345678');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, bob' })).toBeVisible();

  await context.clearCookies();
  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your session has ended: sign in again' });
  await expect(dialog).toBeVisible();
  await screen(page, 'developer-session-expired');

  await dialog.getByLabel('Username').fill('bob');
  await dialog.getByLabel('Password').fill('wrong-password');
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/wrong/i);
  await dialog.getByLabel('Password').fill('bob-password');
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Hello, bob' })).toBeVisible();

  // Without a credential, scopes and the claim say in plain words what comes first, and link to it.
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.getByRole('link', { name: 'Request scopes' }).click();
    await expect(page.getByText(/Scopes belong to an API credential, and you do not have one yet/)).toBeVisible();
    await expect(page.getByLabel('Purpose of use')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Request' })).toHaveCount(0);
    await screen(page, `developer-scopes-without-credential-${viewport.width}`);
    await page.getByRole('link', { name: 'Claim', exact: true }).click();
    await expect(
      page.getByText('There is no key to claim yet: you have not applied for API credentials.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Claim the key' })).toHaveCount(0);
    await screen(page, `developer-claim-without-credential-${viewport.width}`);
  }
  await page.getByRole('link', { name: 'Apply on your dashboard' }).click();
  await expect(page.getByRole('button', { name: 'Apply for API credentials' })).toBeVisible();
});

test('at 375 px wide every screen fits without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/ui/developer/register');
  await page.getByLabel('Username').fill('narrow');
  await page.getByLabel('Password', { exact: true }).fill('narrow-password');
  await page.getByLabel('E-mail').fill('narrow@example.com');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Hello, narrow' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply for API credentials' }).click();
  await expect(page.locator('.status').first()).toHaveText('pending');
  // While the application waits, scopes and the claim say so instead of offering what would be refused.
  for (const screenPath of ['/ui/developer/scopes', '/ui/developer/claim']) {
    await page.goto(screenPath);
    await expect(page.getByText(/waiting for an administrator to review it/)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'See its status on your dashboard' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('button', { name: /^(Request|Claim the key)$/ })).toHaveCount(0);
  }
  await fitsNarrow(page, 'Developer center', [
    ['/ui/developer', 'narrow-developer-dashboard'],
    ['/ui/developer/scopes', 'narrow-developer-scope-request'],
    ['/ui/developer/claim', 'narrow-developer-claim'],
    ['/ui/developer/reference', 'narrow-developer-reference'],
  ]);

  // The administrator signs into the same session: both identities live in one cookie.
  await page.goto('/ui/admin/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();
  await fitsNarrow(page, 'Administrator console', [
    ['/ui/admin/credentials', 'narrow-admin-credential-queue'],
    ['/ui/admin/addons', 'narrow-admin-application-center'],
    ['/ui/admin/audit', 'narrow-auditor'],
  ]);
});

/** A write through the API on this client's session, with its CSRF token: the data of a 2xx answer. */
async function write(api: APIRequestContext, path: string, data: object = {}) {
  const token = ((await (await api.get('/api/v1/developer/session')).json()) as { data: { csrf_token: string } }).data
    .csrf_token;
  const res = await api.post(`/api/v1${path}`, { data, headers: { 'X-CSRF-Token': token } });
  expect(res.status(), `POST ${path}: ${await res.text()}`).toBeLessThan(300);
  return ((await res.json()) as { data: { id?: number } }).data;
}

/** How many lines an element's text takes: one rectangle per line box. */
const linesOf = (element: Locator) =>
  element.evaluate((el) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });

/** Every row's decision buttons lie within that row, and on a wide screen the cell is a table cell as tall as its row. */
async function decisionsInTheirRows(page: Page, wide: boolean) {
  const rows = await page.locator('tbody tr').all();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const rowBox = (await row.boundingBox())!;
    const cell = row.locator('td[data-label="Decision"]');
    if (wide) {
      expect(await cell.evaluate((td) => td.ownerDocument.defaultView!.getComputedStyle(td).display)).toBe(
        'table-cell',
      );
      const cellBox = (await cell.boundingBox())!;
      expect(Math.abs(cellBox.y - rowBox.y)).toBeLessThan(1);
      expect(Math.abs(cellBox.height - rowBox.height)).toBeLessThan(1);
    }
    for (const button of await cell.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(rowBox.y - 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(rowBox.y + rowBox.height + 0.5);
    }
  }
  // Scope names stay whole: never broken at their hyphen.
  for (const name of await page.locator('td[data-label="Scope"] code').all()) expect(await linesOf(name)).toBe(1);
}

test('each decision stays in the row it decides, and labels and names stay readable, at 1280 and 390 px wide', async ({
  page,
  browser,
  baseURL,
  playwright,
}) => {
  // A member with an active credential and two scopes: one approved (revoke), one pending (approve, reject).
  const member = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  // A long name, as a company's integration account has: the way out still fits on one line beside it.
  const username = 'queued-partner-integration-team';
  const { id } = await write(member, '/developer/register', {
    username,
    password: 'queued-password',
    email: 'queued@example.com',
  });
  await write(member, '/developer/credential');
  await write(admin, '/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
  await write(admin, `/credentials/${id}/approve`);
  await write(member, '/developer/claim');
  const reason = 'List the add-ons and the member groups on our partner site, refreshed every night for the catalogue';
  await write(member, '/developer/scopes', { scopes: ['addons.read', 'member-groups.read'], reason });
  await write(admin, `/credentials/${id}/scopes/addons.read/approve`);

  try {
    await page.setViewportSize(DESKTOP);
    await page.goto('/ui/admin/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();

    for (const [viewport, size] of [
      [DESKTOP, 'desktop'],
      [PHONE, '390'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto('/ui/admin/scopes');
      await page.getByLabel('Status').selectOption('');
      const approved = page
        .getByRole('row')
        .filter({ hasText: 'addons.read' })
        .filter({ hasText: `#${id}` });
      await expect(approved.getByRole('button', { name: `Revoke addons.read for ${username}…` })).toBeVisible();
      await decisionsInTheirRows(page, size === 'desktop');
      expect(await linesOf(page.getByRole('button', { name: 'Sign out' }))).toBe(1);
      await screen(page, `queue-scopes-${size}`);

      await page.goto('/ui/admin/credentials');
      await page.getByLabel('Status').selectOption('');
      // Other tests' hundreds of applications page this member out of the first page: searched for.
      await page.getByLabel('Search by username or API id').fill(username);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByRole('cell', { name: `${username} #${id}` })).toBeVisible();
      await decisionsInTheirRows(page, size === 'desktop');
      await screen(page, `queue-credentials-${size}`);
    }

    // The member's own scopes: on a phone each stacked cell says what it is.
    const developer = await (await browser.newContext({ baseURL, viewport: DESKTOP })).newPage();
    await developer.goto('/ui/developer/login');
    await developer.getByLabel('Username').fill(username);
    await developer.getByLabel('Password').fill('queued-password');
    await developer.getByRole('button', { name: 'Sign in' }).click();
    const scopes = developer.getByRole('region', { name: 'Scopes' });
    await expect(scopes.getByRole('cell', { name: reason })).toHaveCount(2);
    // A key not used yet: the use card says so in words, no empty chart.
    const usage = developer.getByRole('region', { name: 'Use of your key' });
    await expect(usage.getByText('No calls yet.')).toBeVisible();
    await expect(usage.locator('svg')).toHaveCount(0);
    for (const name of await scopes.locator('code').all()) expect(await linesOf(name)).toBe(1);
    await screen(developer, 'developer-scopes-desktop');
    await developer.setViewportSize(PHONE);
    const labelOf = (cell: Locator) =>
      cell.evaluate((td) => td.ownerDocument.defaultView!.getComputedStyle(td, '::before').content);
    const firstRow = scopes.locator('tbody tr').first();
    expect(await labelOf(firstRow.locator('td').nth(2))).toBe('"Your reason: "');
    expect(await labelOf(firstRow.locator('td').nth(3))).toBe('"Decision: "');
    expect(await linesOf(developer.getByRole('button', { name: 'Sign out' }))).toBe(1);
    await screen(developer, 'developer-scopes-390');
  } finally {
    // Leave nothing for the other stories' queues, whatever happened above.
    await write(admin, `/credentials/${id}/scopes/member-groups.read/reject`, { reason: 'not needed' });
    await write(admin, `/credentials/${id}/revoke`, { reason: 'test member' });
    await member.dispose();
    await admin.dispose();
  }
});

test('registration asks for one of e-mail and mobile, shows each refusal once at its field, and a failed load can be tried again', async ({
  page,
  baseURL,
  playwright,
}) => {
  const other = await playwright.request.newContext({ baseURL });
  await write(other, '/developer/register', {
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
