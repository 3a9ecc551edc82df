import { ADMIN_PASSWORD, expect, platformCli, screen, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

async function signInAdmin(page: Page, username: string, password: string) {
  await page.goto('/ui/admin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Administrator console' })).toBeVisible();
}

test('an add-on installed with page roles is seen by an administrator of that role group', async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('link', { name: 'Application center' }).click();
  const helpdesk = page.getByRole('article', { name: /Helpdesk/ });
  await expect(helpdesk).toContainText('not installed');
  await screen(page, 'admin-application-center');

  await helpdesk.getByRole('button', { name: 'Install Helpdesk…' }).click();
  // Managing a page grants viewing it; withdrawing the view withdraws the manage.
  await helpdesk.getByLabel('Operators may manage Tickets', { exact: true }).check();
  await expect(helpdesk.getByLabel('Operators may view Tickets')).toBeChecked();
  await helpdesk.getByLabel('Operators may view Queues').check();
  await helpdesk.getByLabel('Auditors may manage Reports').check();
  await helpdesk.getByLabel('Auditors may view Reports').uncheck();
  await expect(helpdesk.getByLabel('Auditors may manage Reports')).not.toBeChecked();
  await helpdesk.getByLabel('Auditors may view Reports').check();
  await screen(page, 'admin-install-page-roles');

  // Each box sits under its "view" or "manage" heading, and on a phone the headings stay.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    const headings = helpdesk.locator('table.page-roles thead');
    await expect(headings).toBeVisible();
    for (const [r, role] of ['Operators', 'Auditors'].entries()) {
      await expect(headings.getByRole('columnheader', { name: role, exact: true })).toBeVisible();
      for (const right of ['view', 'manage']) {
        const heading = (await headings.getByRole('columnheader', { name: right, exact: true }).nth(r).boundingBox())!;
        for (const title of ['Tickets', 'Queues', 'Reports']) {
          const box = (await helpdesk.getByLabel(`${role} may ${right} ${title}`).boundingBox())!;
          const centre = box.x + box.width / 2;
          expect(centre, `${role} may ${right} ${title}`).toBeGreaterThan(heading.x);
          expect(centre, `${role} may ${right} ${title}`).toBeLessThan(heading.x + heading.width);
        }
      }
    }
    await screen(page, `admin-install-page-roles-${viewport.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await helpdesk.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(helpdesk).toContainText('installed 1.0.0, enabled, in the menu');

  // Reinstall keeping the saved roles, then the menu and enable toggles, each as the list shows it.
  await helpdesk.getByRole('button', { name: 'Reinstall Helpdesk…' }).click();
  await expect(helpdesk.getByLabel('Keep the saved page roles')).toBeChecked();
  await helpdesk.getByRole('button', { name: 'Reinstall', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /reinstalled/i })).toBeVisible();
  await helpdesk.getByRole('button', { name: 'Hide from the menu' }).click();
  await expect(helpdesk).toContainText('not in the menu');
  await helpdesk.getByRole('button', { name: 'Show in the menu' }).click();
  await expect(helpdesk).toContainText(', in the menu');

  // The access editor shows what was saved.
  await helpdesk.getByRole('button', { name: 'Access to Helpdesk…' }).click();
  await expect(helpdesk.getByLabel('Operators may manage Tickets', { exact: true })).toBeChecked();
  await expect(helpdesk.getByLabel('Auditors may view Reports')).toBeChecked();
  await expect(helpdesk.getByLabel('Auditors may manage Reports')).not.toBeChecked();
  await helpdesk.getByRole('button', { name: 'Cancel' }).click();

  // An auditor-group administrator, created on the command line, opens only what its group may.
  platformCli(['admin', 'create', '--username', 'carol', '--role', '2', '--password-stdin'], 'carol-password-1\n');
  const carol = await (await browser.newContext({ baseURL })).newPage();
  await signInAdmin(carol, 'carol', 'carol-password-1');
  const nav = carol.getByRole('navigation', { name: 'Administrator console' });
  await expect(nav.getByRole('link')).toHaveText([
    'Application center',
    'Role groups',
    'Audit',
    'Contract',
    'Your account',
  ]);
  // An auditor lands on the audit, not on the first screen of the navigation.
  await expect(carol).toHaveURL(/\/ui\/admin\/audit$/);
  await expect(carol.getByRole('heading', { name: 'Member history' })).toBeVisible();
  // A screen its group may not use says so, with the permission it needs: never another screen in its place.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await carol.setViewportSize(viewport);
    await carol.goto('/ui/admin/credentials');
    await expect(
      carol.getByText('You do not have access to Credentials: it needs the permission credential.review.'),
    ).toBeVisible();
    await expect(carol).toHaveURL(/\/ui\/admin\/credentials$/);
    await expect(carol.getByRole('heading', { name: 'Application center' })).toHaveCount(0);
    await expect(carol.getByRole('main').locator('section').getByRole('link')).toHaveText([
      'Application center',
      'Role groups',
      'Audit',
      'Contract',
      'Your account',
    ]);
    await screen(carol, `fix-admin-no-access-${viewport.width}`);
    await carol.goto('/ui/admin/nowhere');
    await expect(carol.getByRole('heading', { name: 'There is no page at this address' })).toBeVisible();
    await expect(nav).toBeVisible();
    await screen(carol, `fix-admin-not-found-${viewport.width}`);
  }
  await carol.getByRole('link', { name: "the administrator console's first screen" }).click();
  await expect(carol).toHaveURL(/\/ui\/admin\/audit$/);
  await carol.setViewportSize({ width: 1280, height: 720 });
  await nav.getByRole('link', { name: 'Application center' }).click();
  const carolsHelpdesk = carol.getByRole('article', { name: /Helpdesk/ });
  await carolsHelpdesk.getByText('Pages you may open (1)').click();
  await expect(carolsHelpdesk.getByRole('listitem')).toHaveText(['Reports view only']);
  await expect(carolsHelpdesk.getByRole('button', { name: 'Install Helpdesk…' })).toHaveCount(0);
  await screen(carol, 'admin-role-group-member');
  await carol.getByRole('link', { name: 'Role groups' }).click();
  await expect(carol.getByRole('cell', { name: 'Auditors' })).toBeVisible();
  await screen(carol, 'admin-role-groups');

  // Disable hides every page; uninstall asks first.
  await helpdesk.getByRole('button', { name: 'Disable Helpdesk' }).click();
  await expect(helpdesk).toContainText('disabled');
  await helpdesk.getByRole('button', { name: 'Enable Helpdesk' }).click();
  const uninstall = page.getByRole('dialog', { name: 'Uninstall Helpdesk?' });
  await helpdesk.getByRole('button', { name: 'Uninstall Helpdesk…' }).click();
  await uninstall.getByRole('button', { name: 'Cancel' }).click();
  await expect(helpdesk).toContainText('installed 1.0.0');
  await helpdesk.getByRole('button', { name: 'Uninstall Helpdesk…' }).click();
  await uninstall.getByRole('button', { name: 'Uninstall' }).click();
  await expect(helpdesk).toContainText('not installed');
});

test('on a phone the page-roles editor keeps the page names in view and says that more role groups lie to the side', async ({
  page,
}) => {
  // A third role group: at 390 px its boxes no longer fit beside the page names.
  const created = platformCli(['roles', 'create', '--name', 'Reviewers', '--permissions', 'credential.review']);
  const id = /id (\d+)/.exec(created)![1]!;
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Application center' }).click();
    const helpdesk = page.getByRole('article', { name: /Helpdesk/ });
    await helpdesk.getByRole('button', { name: 'Install Helpdesk…' }).click();
    await expect(helpdesk.getByRole('columnheader', { name: 'Reviewers', exact: true })).toBeAttached();
    const more = helpdesk.getByTestId('more-sideways');
    await expect(more).toHaveText(/More role groups to the right/);
    await screen(page, 'fix-page-roles-390');

    /** Whether what is drawn at the element's centre is the element itself: in view, not under another column. */
    const shown = (element: Locator) =>
      element.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top !== null && (el === top || el.contains(top));
      });
    const scroller = helpdesk.locator('.table-scroll');
    // The whole table in the window, then its boxes scrolled to their far end.
    await scroller.evaluate((el) => el.ownerDocument.defaultView!.scrollBy(0, el.getBoundingClientRect().top - 80));
    await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await expect(more).toHaveText(/More role groups to the left/);
    expect(await shown(helpdesk.getByRole('columnheader', { name: 'Page', exact: true }))).toBe(true);
    for (const title of ['Tickets', 'Queues', 'Reports'])
      expect(await shown(helpdesk.getByRole('rowheader', { name: new RegExp(`^${title} `) })), title).toBe(true);
    expect(await shown(helpdesk.getByLabel('Reviewers may manage Reports', { exact: true }))).toBe(true);
    await screen(page, 'fix-page-roles-390-scrolled');

    // Back with the keyboard: each box that takes focus comes out from under the page names.
    // Other stories may have added role groups, so the boxes between the two are not counted.
    await helpdesk.getByLabel('Reviewers may view Tickets', { exact: true }).focus();
    const operators = helpdesk.getByLabel('Operators may manage Tickets', { exact: true });
    for (let i = 0; i < 12 && !(await operators.evaluate((el) => el === el.ownerDocument.activeElement)); i++) {
      await page.keyboard.press('Shift+Tab');
      const focused = page.locator(':focus');
      expect(await shown(focused), (await focused.getAttribute('aria-label')) ?? 'the focused box').toBe(true);
    }
    await expect(operators).toBeFocused();
    await helpdesk.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    platformCli(['roles', 'disable', id]);
  }
});

test('the administrator reads the full contract', async ({ page }) => {
  await signInAdmin(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('link', { name: 'Contract' }).click();
  await expect(
    page.getByRole('heading', { name: /POST \/api\/v1\/credentials\/\{member_id\}\/approve/ }),
  ).toBeVisible();
  await screen(page, 'admin-contract');
});
