import { fireEvent, render, screen, within } from '@testing-library/preact';
import { Administrators } from './administrators';
import { RoleGroupsManager } from './role-groups';
import { envelope, serviceStandIn } from '../../test/envelope';
import { administratorOf } from '../../test/administrator';

const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });
const refused = (error: string) =>
  envelope(403, { code: 403, message: `the service's words for ${error}`, data: { error } });

const PERMISSIONS = [
  { name: 'addon.view', description: 'See the application center' },
  { name: 'audit.read', description: 'Read the audit trail and export it' },
  { name: 'access.manage', description: 'Manage role groups and administrators' },
];
const GROUPS = [
  { id: 1, name: 'Managers', permissions: ['access.manage'], enabled: true },
  { id: 2, name: 'Auditors', permissions: ['access.manage', 'audit.read'], enabled: true },
];
const ADMINS = [
  administratorOf({ id: 1, username: 'admin', is_super: true, role_id: null }),
  administratorOf({ id: 2, username: 'mia' }),
  administratorOf({ id: 3, username: 'aud', role_id: 2 }),
  administratorOf({ id: 4, username: 'pete', enabled: false }),
];
/** mia, signed in: she holds access.manage, and nothing else. */
const MIA = { self: 2, isSuper: false, held: new Set(['access.manage']) };

/** The service: reads answer the lists above, every write is refused with `error`. */
function refusing(error: string) {
  serviceStandIn(({ pathname: path }, request) => {
    if (request.method !== 'GET') return refused(error);
    if (path.endsWith('/permissions')) return ok({ list: PERMISSIONS });
    if (path.endsWith('/role-groups')) return ok({ list: GROUPS });
    return ok({ list: ADMINS });
  });
}

describe('the refusals of the escalation rule, in words', () => {
  it('names the permission a new role group would give that the administrator does not hold', async () => {
    refusing('permission_not_held');
    render(<RoleGroupsManager held={MIA.held} />);
    fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'Everything' } });
    fireEvent.click(await screen.findByLabelText(/Read the audit trail and export it/));
    fireEvent.click(screen.getByLabelText(/Manage role groups and administrators/));
    fireEvent.click(screen.getByRole('button', { name: 'Define' }));
    expect(
      await screen.findByText(
        'You do not hold audit.read, which the group would give or holds: ask an administrator who holds it, or a super administrator.',
      ),
    ).not.toBeNull();
  });

  it('names the permissions of a role group the administrator may not disable', async () => {
    refusing('permission_not_held');
    render(<RoleGroupsManager held={MIA.held} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable Auditors…' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Disable Auditors?' })).getByRole('button', { name: 'Disable' }),
    );
    expect(
      await screen.findByText(/^You do not hold audit\.read, which the role group Auditors would give or holds/),
    ).not.toBeNull();
  });

  it('names the permission of a stronger role group an administrator was to be created in', async () => {
    refusing('permission_not_held');
    render(<Administrators {...MIA} />);
    await screen.findByRole('option', { name: /Auditors/ });
    fireEvent.input(screen.getByLabelText(/^Username/), { target: { value: 'sock' } });
    fireEvent.change(screen.getByLabelText('Role group'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText(/^You do not hold audit\.read, which its role group would give or holds/),
    ).not.toBeNull();
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });

  it('names the permission of a stronger administrator whose password was to be reset', async () => {
    refusing('permission_not_held');
    render(<Administrators {...MIA} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset the password of aud…' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Reset the password of aud?' })).getByRole('button', {
        name: 'Reset password',
      }),
    );
    expect(await screen.findByText(/^You do not hold audit\.read, which aud would give or holds/)).not.toBeNull();
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });

  it("keeps the service's words when the permission is held, but for the caller's own group only (webhook.manage)", async () => {
    refusing('permission_not_held');
    render(<Administrators self={2} isSuper={false} held={new Set(['access.manage', 'audit.read'])} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset the password of aud…' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Reset the password of aud?' })).getByRole('button', {
        name: 'Reset password',
      }),
    );
    expect(await screen.findByText("the service's words for permission_not_held")).not.toBeNull();
  });

  it('says that only a super administrator enables one a super administrator disabled', async () => {
    refusing('super_admin_only');
    render(<Administrators {...MIA} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Enable pete' }));
    expect(
      await screen.findByText(
        'Only a super administrator can do this to pete: a super administrator, or one a super administrator disabled.',
      ),
    ).not.toBeNull();
  });

  it("says an administrator's own account is changed elsewhere", async () => {
    refusing('own_account');
    // The rows never offer one's own account; a service answering own_account anyway is still worded.
    render(<Administrators {...MIA} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset the password of aud…' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Reset the password of aud?' })).getByRole('button', {
        name: 'Reset password',
      }),
    );
    expect(await screen.findByText(/^This is your own account/)).not.toBeNull();
  });

  it("says at the Name field that a role group name reads like another group's, and why two names that differ are one", async () => {
    serviceStandIn(({ pathname: path }, request) => {
      if (request.method !== 'GET')
        return envelope(409, {
          code: 409,
          message: 'the role group "Auditors" already has this name, or one that reads like it: choose another name',
          data: { error: 'role_group_name_taken' },
        });
      if (path.endsWith('/permissions')) return ok({ list: PERMISSIONS });
      return ok({ list: GROUPS });
    });
    render(<RoleGroupsManager held={MIA.held} />);
    fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: '\u0410uditors' } });
    fireEvent.click(screen.getByRole('button', { name: 'Define' }));
    const said = await screen.findByText(/^The role group "Auditors" already has this name, or one that reads like it/);
    expect(said.textContent).toContain('a Cyrillic А and a Latin A');
    expect(screen.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('\u0410uditors');
  });

  it("says at the Username field that a username reads like another administrator's", async () => {
    serviceStandIn(({ pathname: path }, request) => {
      if (request.method !== 'GET')
        return envelope(409, {
          code: 409,
          message: 'the username "adrnin" reads like that of the administrator "admin": choose another username',
          data: { error: 'admin_username_taken' },
        });
      if (path.endsWith('/role-groups')) return ok({ list: GROUPS });
      return ok({ list: ADMINS });
    });
    render(<Administrators {...MIA} />);
    await screen.findByRole('option', { name: /Managers/ });
    fireEvent.input(screen.getByLabelText(/^Username/), { target: { value: 'adrnin' } });
    fireEvent.change(screen.getByLabelText('Role group'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const said = await screen.findByText(/^The username "adrnin" reads like that of the administrator "admin"/);
    expect(said.textContent).toContain('"rn" and "m"');
    expect(screen.getByLabelText(/^Username/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });
});
