import { ADMIN_PASSWORD, expect, signIn, test } from './fixtures';
import { atBothWidths, mailedLink } from './story-helpers';

test('an administrator invited by mail chooses a password from the mailed link, signs in, and changes it on "Your account"', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const username = `inv${Date.now().toString(36)}`;
  const email = `${username}@example.com`;

  // The super administrator creates them with an address: the service sends mail, so no password is shown.
  await signIn(page, 'admin', 'admin', ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Administrator console' });
  await nav.getByRole('link', { name: 'Administrators' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Role group').selectOption({ label: 'Auditors: addon.view, audit.read' });
  await page.getByLabel(/^Email/).fill(email);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Created ${username}. Invitation mailed to ${email}: its link lets them choose their password, once, within 72 hours.`,
  );
  await expect(page.getByTestId('one-time-password')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: username, exact: true })).toBeVisible();

  // They open the mailed link in a browser of their own, signed out.
  const link = await mailedLink(email);
  expect(link).toContain(`${baseURL}/ui/admin/invitation?token=`);
  const invitee = await (await browser.newContext({ baseURL })).newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Choose your administrator password' })).toBeVisible();
  await atBothWidths(invitee, 'admin-invitation');
  await invitee.getByLabel('Password', { exact: true }).fill('invited-password');
  await invitee.getByLabel('Password again').fill('invited-passwort');
  await invitee.getByRole('button', { name: 'Set the password' }).click();
  await expect(invitee.getByRole('alert')).toHaveText('The two passwords differ: type the same password twice.');
  await invitee.getByLabel('Password again').fill('invited-password');
  await invitee.getByRole('button', { name: 'Set the password' }).click();
  await expect(invitee.getByRole('status')).toHaveText(`The password of ${username} is set.`);

  // Signed in with it, they land on their permissions' first screen and find "Your account".
  await invitee.getByRole('link', { name: 'Sign in to the administrator console' }).click();
  await invitee.getByLabel('Username').fill(username);
  await invitee.getByLabel('Password').fill('invited-password');
  await invitee.getByRole('button', { name: 'Sign in', exact: true }).click();
  const theirNav = invitee.getByRole('navigation', { name: 'Administrator console' });
  await expect(theirNav).toContainText(username);
  await theirNav.getByRole('link', { name: 'Your account' }).click();
  await invitee.getByLabel('Current password').fill('not-my-password');
  await invitee.getByLabel('New password', { exact: true }).fill('changed-password');
  await invitee.getByLabel('New password again').fill('changed-password');
  await invitee.getByRole('button', { name: 'Change password' }).click();
  await expect(invitee.getByRole('alert')).toHaveText('the current password is wrong: nothing changed');
  await invitee.getByLabel('Current password').fill('invited-password');
  await invitee.getByRole('button', { name: 'Change password' }).click();
  await expect(invitee.getByRole('status')).toHaveText('Password changed; 0 other sessions ended.');
  await atBothWidths(invitee, 'admin-own-account');

  // The link is spent: opened again, it says so in words.
  const again = await (await browser.newContext({ baseURL })).newPage();
  await again.goto(link);
  await again.getByLabel('Password', { exact: true }).fill('third-password');
  await again.getByLabel('Password again').fill('third-password');
  await again.getByRole('button', { name: 'Set the password' }).click();
  await expect(again.getByRole('alert')).toContainText('this invitation link was already used');
});
