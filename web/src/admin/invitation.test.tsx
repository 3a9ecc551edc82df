import { fireEvent, render, screen } from '@testing-library/preact';
import { AcceptInvitation } from './invitation';
import { envelope, serviceStandIn } from '../../test/envelope';

const ok = (data: unknown, message = 'ok') => envelope(200, { code: 0, message, data });

afterEach(() => history.replaceState(null, '', '/'));

function type(password: string, again: string) {
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.input(screen.getByLabelText('Password again'), { target: { value: again } });
  fireEvent.submit(screen.getByRole('button', { name: 'Set the password' }).closest('form')!);
}

it("sets the password with the mailed link's token, then offers the sign-in", async () => {
  history.replaceState(null, '', '/ui/admin/invitation?token=12.abc');
  const calls = serviceStandIn(() => ok({ username: 'carol' }));
  render(<AcceptInvitation />);
  type('chosen-secret', 'chosen-secret');
  expect((await screen.findByRole('status')).textContent).toBe('The password of carol is set.');
  expect(screen.getByRole('link', { name: 'Sign in to the administrator console' }).getAttribute('href')).toBe(
    '/ui/admin/login',
  );
  const sent = calls.find((request) => request.method === 'POST')!;
  expect(new URL(sent.url).pathname).toBe('/api/v1/admin/invitation/accept');
  expect(await sent.json()).toEqual({ token: '12.abc', password: 'chosen-secret' });
  expect(sent.headers.get('X-CSRF-Token')).toBe('token-1');
});

it('sends nothing while the two passwords differ, and says so at the second field', async () => {
  history.replaceState(null, '', '/ui/admin/invitation?token=12.abc');
  const calls = serviceStandIn(() => ok({ username: 'carol' }));
  render(<AcceptInvitation />);
  type('chosen-secret', 'chosen-secreT');
  expect((await screen.findByRole('alert')).textContent).toBe(
    'The two passwords differ: type the same password twice.',
  );
  expect(screen.getByLabelText('Password again').getAttribute('aria-invalid')).toBe('true');
  expect(calls.filter((request) => request.method === 'POST')).toEqual([]);
});

it('says a spent link is spent, in words, and whom to ask', async () => {
  history.replaceState(null, '', '/ui/admin/invitation?token=12.abc');
  serviceStandIn(() =>
    envelope(422, {
      code: 422,
      message: 'this invitation link was already used: sign in, or ask an administrator to reset your password',
      data: { error: 'invitation_token_spent' },
    }),
  );
  render(<AcceptInvitation />);
  type('chosen-secret', 'chosen-secret');
  expect((await screen.findByRole('alert')).textContent).toMatch(/already used/);
  expect(screen.getByText(/Ask an administrator who manages access to reset your password/)).toBeTruthy();
});

it('says the page belongs to the mailed link when opened without a token', () => {
  serviceStandIn(() => ok({ username: 'carol' }));
  render(<AcceptInvitation />);
  expect(screen.getByText('This page is opened from the link in the invitation mail.').className).toContain('refusal');
});
