import type { Locator, Page } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screen, signIn, test } from './fixtures';
import { post } from './partner-member';
import { DESKTOP, PHONE } from './story-helpers';

/** The review queues' rows and the member's scopes laid out readably, at 1280 and 390 px wide. */

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
  const { id } = await post(member, 'developer', '/developer/register', {
    username,
    password: 'queued-password',
    email: 'queued@example.com',
  });
  await post(member, 'developer', '/developer/credential');
  await post(admin, 'admin', '/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
  await post(admin, 'admin', `/credentials/${id}/approve`);
  await post(member, 'developer', '/developer/claim');
  const reason = 'List the add-ons and the member groups on our partner site, refreshed every night for the catalogue';
  await post(member, 'developer', '/developer/scopes', { scopes: ['addons.read', 'member-groups.read'], reason });
  await post(admin, 'admin', `/credentials/${id}/scopes/addons.read/approve`);

  try {
    await page.setViewportSize(DESKTOP);
    await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
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
    await signIn(developer, 'developer', username, 'queued-password');
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
    await post(admin, 'admin', `/credentials/${id}/scopes/member-groups.read/reject`, { reason: 'not needed' });
    await post(admin, 'admin', `/credentials/${id}/revoke`, { reason: 'test member' });
    await member.dispose();
    await admin.dispose();
  }
});
