import { ADMIN_PASSWORD, expect, screen, test } from './fixtures';
import type { Page } from '@playwright/test';

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/ui/admin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Replaces a one-time password with one of the administrator's own, on the screen that asks for it first. */
async function chooseOwn(page: Page, oneTime: string): Promise<void> {
  await page.getByLabel('One-time password').fill(oneTime);
  await page.getByLabel('New password', { exact: true }).fill(`${oneTime}-own`);
  await page.getByLabel('New password again').fill(`${oneTime}-own`);
  await page.getByRole('button', { name: 'Set my password' }).click();
  await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();
}

/** The screen at a desktop's and a phone's width, each kept and checked by axe. */
async function bothWidths(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
    await screen(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a role group and an administrator made in the console: the one-time password signs in, the group permission holds, a disabled administrator cannot sign in', async ({
  page,
  browser,
  baseURL,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Administrator console' });
  await nav.getByRole('link', { name: 'Role groups' }).click();

  // A group of reviewers, its permission ticked by what it allows.
  await page.getByLabel('Name').fill('Credential reviewers');
  await page.getByLabel(/Review credential applications and scope requests/).check();
  await page.getByRole('button', { name: 'Define' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /Defined the role group Credential reviewers/ }),
  ).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'Credential reviewers', exact: true }) });
  await expect(row).toContainText('credential.review');
  await bothWidths(page, 'admin-role-groups-manage');

  // An administrator in it: the one-time password is shown once, and leaving waits for "stored".
  await nav.getByRole('link', { name: 'Administrators' }).click();
  await page.getByLabel('Username').fill('erin');
  await page.getByLabel('Role group').selectOption({ label: 'Credential reviewers: credential.review' });
  await page.getByRole('button', { name: 'Create' }).click();
  const shown = page.getByTestId('one-time-password');
  await expect(shown).toBeVisible();
  const password = (await shown.textContent())!;
  expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
  await page.getByRole('button', { name: 'Copy the password' }).click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(password);
  await expect(page.getByRole('button', { name: 'Done: hide the password' })).toBeDisabled();
  await bothWidths(page, 'admin-one-time-password');
  await nav.getByRole('link', { name: 'Contract' }).click();
  await page.getByRole('dialog', { name: 'Leave without storing it?' }).getByRole('button', { name: 'Stay' }).click();
  await expect(shown).toBeVisible();
  await page.getByLabel('I have stored the password somewhere safe').check();
  await page.getByRole('button', { name: 'Done: hide the password' }).click();
  await expect(shown).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'erin', exact: true })).toBeVisible();
  await bothWidths(page, 'admin-administrators');

  // Erin signs in with it: she reviews credentials, and may not manage administrators.
  const erin = await (await browser.newContext({ baseURL })).newPage();
  await signIn(erin, 'erin', password);
  // A one-time password is changed first: nothing else opens until then.
  await expect(erin.getByRole('heading', { name: 'Choose your own password' })).toBeVisible();
  await bothWidths(erin, 'admin-choose-password');
  await chooseOwn(erin, password);
  const erinsNav = erin.getByRole('navigation', { name: 'Administrator console' });
  await expect(erinsNav.getByRole('link')).toHaveText([
    'Credentials',
    'Scope requests',
    'Approval rules',
    'Dead mail',
    'Contract',
    'Your account',
  ]);
  await expect(erin).toHaveURL(/\/ui\/admin\/credentials$/);
  await expect(erin.getByRole('heading', { name: 'Credential applications', level: 1 })).toBeVisible();
  await erin.goto('/ui/admin/administrators');
  await expect(
    erin.getByText('You do not have access to Administrators: it needs the permission access.manage.'),
  ).toBeVisible();

  // Disabled, her session ends at once and she cannot sign in again.
  await page.getByRole('button', { name: 'Disable erin…' }).click();
  await page
    .getByRole('dialog', { name: 'Disable erin?' })
    .getByRole('button', { name: 'Disable', exact: true })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Disabled erin' })).toBeVisible();
  await erin.goto('/ui/admin/credentials');
  await expect(erin.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await erin.getByLabel('Username').fill('erin');
  await erin.getByLabel('Password').fill(`${password}-own`);
  await erin.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(erin.getByRole('alert')).toContainText('this administrator is disabled');
  await screen(erin, 'admin-disabled-sign-in');
});

test("an administrator who manages access but is not super is offered nothing on a super administrator's row", async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Administrator console' });
  await nav.getByRole('link', { name: 'Role groups' }).click();
  await page.getByLabel('Name').fill('Access managers');
  await page.getByLabel(/access\.manage/).check();
  await page.getByRole('button', { name: 'Define' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Defined the role group Access managers/ })).toBeVisible();
  await nav.getByRole('link', { name: 'Administrators' }).click();
  await page.getByLabel('Username').fill('frank');
  await page.getByLabel('Role group').selectOption({ label: 'Access managers: access.manage' });
  await page.getByRole('button', { name: 'Create' }).click();
  const password = (await page.getByTestId('one-time-password').textContent())!;

  const frank = await (await browser.newContext({ baseURL })).newPage();
  await signIn(frank, 'frank', password);
  await chooseOwn(frank, password);
  await frank
    .getByRole('navigation', { name: 'Administrator console' })
    .getByRole('link', { name: 'Administrators' })
    .click();
  const superRow = frank.getByRole('row').filter({ has: frank.getByRole('cell', { name: 'admin', exact: true }) });
  await expect(superRow).toContainText('Only a super administrator can disable or reset a super administrator');
  await expect(superRow.getByRole('button')).toHaveCount(0);
  await bothWidths(frank, 'admin-administrators-not-super');
});
