import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { Administrators } from './administrators';
import { envelope, serviceStandIn } from '../../test/envelope';
import { administratorOf } from '../../test/administrator';

const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });
const ALL = new Set(['addon.view', 'audit.read', 'access.manage']);
const MANAGER = new Set(['access.manage']);

const GROUPS = [
  { id: 1, name: 'Operators', permissions: ['addon.view'], enabled: true },
  { id: 2, name: 'Auditors', permissions: ['audit.read'], enabled: false },
];

/** The service with the super administrator and one operator; `create` answers a creation. */
function service(
  create: (body: Record<string, unknown>) => Response = (body) =>
    ok({
      ...administratorOf({ id: 3, username: String(body.username), role_id: body.role_group_id as number }),
      password: 'OneTime-Password_123456',
      invitation_sent_to: null,
    }),
) {
  const admins = [
    administratorOf({ id: 1, username: 'admin', is_super: true, role_id: null }),
    administratorOf({
      id: 2,
      username: 'carol',
      email: 'carol@example.com',
      single_sign_on: true,
      second_factors: { passkeys: 2, totp: false },
    }),
  ];
  const bodies: Record<string, unknown>[] = [];
  const calls = serviceStandIn(async ({ pathname: path }, request) => {
    if (path.endsWith('/role-groups')) return ok({ list: GROUPS });
    if (request.method === 'GET') return ok({ list: admins });
    if (path.endsWith('/password-reset')) return ok({ id: 2, password: 'Reset-Password_abcdefgh' });
    if (path.endsWith('/disable')) {
      admins[1] = { ...admins[1]!, enabled: false };
      return ok(admins[1]);
    }
    const body = (await request.json()) as Record<string, unknown>;
    bodies.push(body);
    return create(body);
  });
  return { calls, bodies };
}

const writeText = jest.fn(async () => {});
beforeAll(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true }));

describe('administrators screen', () => {
  it('lists administrators with their role group and standing', async () => {
    service();
    render(<Administrators self={1} isSuper held={ALL} />);
    const carol = (await screen.findByRole('cell', { name: 'carol' })).closest('tr')!;
    expect(within(carol).getByText('Operators')).not.toBeNull();
    expect(within(carol).getByText('carol@example.com')).not.toBeNull();
    expect(within(carol).getByText('Single sign-on; 2 passkeys')).not.toBeNull();
    const admin = screen.getByRole('cell', { name: 'admin' }).closest('tr')!;
    expect(within(admin).getByText('super administrator')).not.toBeNull();
    expect(within(admin).getByText('Password')).not.toBeNull();
    // One's own row: no disable and no reset (own_account); one's password changes elsewhere.
    expect(within(admin).getByRole('link', { name: 'You: change your password' }).getAttribute('href')).toBe(
      '/ui/admin/account',
    );
    expect(within(admin).queryByRole('button')).toBeNull();
    expect(within(carol).getByRole('button', { name: 'Disable carol…' })).not.toBeNull();
    expect(screen.getByRole('option', { name: /Auditors \(disabled\)/ })).not.toBeNull();
  });

  it("offers a non-super administrator nothing on a super administrator's row (super_admin_only)", async () => {
    service();
    render(<Administrators self={2} isSuper={false} held={MANAGER} />);
    const admin = (await screen.findByRole('cell', { name: 'admin' })).closest('tr')!;
    expect(within(admin).queryByRole('button')).toBeNull();
    expect(
      within(admin).getByText('Only a super administrator can disable or reset a super administrator'),
    ).not.toBeNull();
  });

  it("offers a super administrator disable and reset on another super administrator's row", async () => {
    service();
    render(<Administrators self={2} isSuper held={ALL} />);
    const admin = (await screen.findByRole('cell', { name: 'admin' })).closest('tr')!;
    expect(within(admin).getByRole('button', { name: 'Disable admin…' })).not.toBeNull();
    expect(within(admin).getByRole('button', { name: 'Reset the password of admin…' })).not.toBeNull();
  });

  it('creates one and shows the one-time password once, with a copy button and a gate before it goes', async () => {
    const { bodies } = service();
    render(<Administrators self={1} isSuper held={ALL} />);
    await screen.findByRole('option', { name: /Operators/ });
    fireEvent.input(screen.getByLabelText(/^Username/), { target: { value: 'dave' } });
    fireEvent.change(screen.getByLabelText('Role group'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByTestId('one-time-password')).textContent).toBe('OneTime-Password_123456');
    expect(bodies).toEqual([{ username: 'dave', role_group_id: 1 }]);

    fireEvent.click(screen.getByRole('button', { name: 'Copy the password' }));
    await screen.findByText('Copied to the clipboard.');
    expect(writeText).toHaveBeenCalledWith('OneTime-Password_123456');
    const done = screen.getByRole('button', { name: 'Done: hide the password' }) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have stored the password somewhere safe'));
    fireEvent.click(done);
    await waitFor(() => expect(screen.queryByTestId('one-time-password')).toBeNull());
    expect(screen.queryByText('OneTime-Password_123456')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Administrators', level: 1 })).not.toBeNull();
  });

  it('says the invitation was mailed, and shows no password screen, when the service mailed one', async () => {
    const { bodies } = service((body) =>
      ok({
        id: 3,
        username: body.username,
        is_super: false,
        role_id: 1,
        email: body.email,
        enabled: true,
        password: null,
        invitation_sent_to: body.email,
      }),
    );
    render(<Administrators self={1} isSuper held={ALL} />);
    await screen.findByRole('option', { name: /Operators/ });
    fireEvent.input(screen.getByLabelText(/^Username/), { target: { value: 'dave' } });
    fireEvent.change(screen.getByLabelText('Role group'), { target: { value: '1' } });
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'dave@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Created dave. Invitation mailed to dave@example.com: its link lets them choose their password, once, within 72 hours.',
    );
    expect(bodies).toEqual([{ username: 'dave', role_group_id: 1, email: 'dave@example.com' }]);
    expect(screen.queryByTestId('one-time-password')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Administrators', level: 1 })).not.toBeNull();
  });

  it("drops the issue of a field once it is changed, and keeps the other field's", async () => {
    const issues = [
      { path: 'username', message: 'Username must start with a letter.' },
      { path: 'email', message: 'E-mail is not an e-mail address.' },
    ];
    service(() =>
      envelope(422, { code: 422, message: 'validation failed', data: { error: 'validation_failed', issues } }),
    );
    render(<Administrators self={1} isSuper held={ALL} />);
    await screen.findByRole('option', { name: /Operators/ });
    fireEvent.change(screen.getByLabelText('Role group'), { target: { value: '1' } });
    // Sent as it is: the service's issues, not the browser's own checks.
    fireEvent.submit(screen.getByRole('button', { name: 'Create' }).closest('form')!);
    expect(await screen.findByText('Username must start with a letter.')).not.toBeNull();
    fireEvent.input(screen.getByLabelText(/^Username/), { target: { value: 'dave' } });
    expect(screen.queryByText('Username must start with a letter.')).toBeNull();
    expect(screen.getByLabelText(/^Email/).getAttribute('aria-invalid')).toBe('true');
    fireEvent.input(screen.getByLabelText(/^Email/), { target: { value: 'dave@example.com' } });
    expect(screen.queryByText('E-mail is not an e-mail address.')).toBeNull();
  });

  it('shows why a creation was refused, and no password', async () => {
    service(() =>
      envelope(409, {
        code: 409,
        message: 'an administrator "dave" already exists: choose another username',
        data: { error: 'admin_username_taken' },
      }),
    );
    render(<Administrators self={1} isSuper held={ALL} />);
    await screen.findByRole('option', { name: /Operators/ });
    fireEvent.input(screen.getByLabelText(/^Username/), { target: { value: 'dave' } });
    fireEvent.change(screen.getByLabelText('Role group'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText(/^An administrator "dave" already exists: choose another username\./),
    ).not.toBeNull();
    expect(screen.getByLabelText(/^Username/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('one-time-password')).toBeNull();
  });

  it('disables one after asking, and resets a password to a one-time one shown once', async () => {
    const { calls } = service();
    render(<Administrators self={1} isSuper held={ALL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable carol…' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Disable carol?' })).getByRole('button', { name: 'Disable' }),
    );
    expect(await screen.findByText('Disabled carol: every session of theirs ended.')).not.toBeNull();
    expect(await screen.findByRole('button', { name: 'Enable carol' })).not.toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Reset the password of carol…' }));
    expect(calls.some((c) => c.url.endsWith('/password-reset'))).toBe(false);
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Reset the password of carol?' })).getByRole('button', {
        name: 'Reset password',
      }),
    );
    expect((await screen.findByTestId('one-time-password')).textContent).toBe('Reset-Password_abcdefgh');
    expect(screen.getByRole('heading', { name: 'One-time password of carol' })).not.toBeNull();
  });
});
