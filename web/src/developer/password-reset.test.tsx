import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { ConfirmEmail, ForgotPassword, ResetPassword, RestoreEmail } from './password-reset';
import { envelope, serviceStandIn } from '../../test/envelope';

const ok = (data: unknown, message = 'ok') => envelope(200, { code: 0, message, data });

function withMail(
  configured: boolean,
  answer: (url: URL, request: Request) => Response = () => ok({ mail_configured: configured }, 'a link is on its way'),
) {
  return serviceStandIn((url, request) =>
    request.method === 'GET' && url.pathname.endsWith('/developer/password-reset')
      ? ok({ mail_configured: configured })
      : answer(url, request),
  );
}

afterEach(() => history.replaceState(null, '', '/'));

it('asks for a link with the username or e-mail typed, and says what happens next', async () => {
  const calls = withMail(true);
  render(<ForgotPassword />);
  fireEvent.input(screen.getByLabelText('Username or e-mail'), { target: { value: 'alice' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Mail me a link' }).closest('form')!);
  expect((await screen.findByRole('status')).textContent).toBe('A link is on its way.');
  const sent = calls.find((request) => request.method === 'POST')!;
  expect(new URL(sent.url).pathname).toBe('/api/v1/developer/password-reset');
  expect(await sent.json()).toEqual({ login: 'alice' });
  expect(sent.headers.get('X-CSRF-Token')).toBe('token-1');
});

it('says to ask an administrator for a one-time password when the service sends no mail', async () => {
  withMail(false);
  render(<ForgotPassword />);
  expect(
    (await screen.findByText(/ask an administrator who manages access to give you a one-time password/)).className,
  ).toBe('notice next-step');
  // Nothing to fill in that could not be sent: no form, no error.
  expect(screen.queryByRole('button', { name: 'Mail me a link' })).toBeNull();
  expect(screen.queryByLabelText('Username or e-mail')).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByRole('link', { name: 'Sign in' })).not.toBeNull();
});

it('sets the new password with the token of the mailed link, then offers the sign-in', async () => {
  history.replaceState(null, '', '/ui/developer/reset?token=7.abc');
  const calls = serviceStandIn(() => ok({ username: 'alice' }));
  render(<ResetPassword />);
  fireEvent.input(screen.getByLabelText('New password'), { target: { value: 'brand-new' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Set the password' }).closest('form')!);
  expect((await screen.findByRole('status')).textContent).toMatch(/password of alice is set/);
  expect(screen.getByRole('link', { name: 'Sign in with the new password' }).getAttribute('href')).toBe(
    '/ui/developer/login',
  );
  expect(await calls.find((request) => request.method === 'POST')!.json()).toEqual({
    token: '7.abc',
    password: 'brand-new',
  });
});

it('says a spent link is spent, and offers to ask for a new one', async () => {
  history.replaceState(null, '', '/ui/developer/reset?token=7.abc');
  serviceStandIn(() =>
    envelope(422, {
      code: 422,
      message: 'this password-reset link was already used: ask for a new one',
      data: { error: 'reset_token_spent' },
    }),
  );
  render(<ResetPassword />);
  fireEvent.input(screen.getByLabelText('New password'), { target: { value: 'brand-new' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Set the password' }).closest('form')!);
  expect((await screen.findByRole('alert')).textContent).toMatch(/already used/);
  expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/ui/developer/forgot');
});

it('confirms a new e-mail address with the token of its link', async () => {
  history.replaceState(null, '', '/ui/developer/confirm-email?token=7.xyz');
  const calls = serviceStandIn(() => ok({ username: 'alice', email: 'new@example.com' }));
  render(<ConfirmEmail />);
  fireEvent.click(screen.getByRole('button', { name: 'Confirm this address' }));
  expect((await screen.findByRole('status')).textContent).toBe(
    'Confirmed: mail for alice now goes to new@example.com.',
  );
  expect(await calls.find((request) => request.method === 'POST')!.json()).toEqual({ token: '7.xyz' });
});

it('restores a replaced address with the token of the notice, and says a spent link in words', async () => {
  history.replaceState(null, '', '/ui/developer/restore-email?token=7.old');
  let answer = () => ok({ username: 'alice', email: 'alice@example.com' });
  const calls = serviceStandIn(() => answer());
  render(<RestoreEmail />);
  fireEvent.click(screen.getByRole('button', { name: 'Restore this address and sign out everywhere' }));
  expect((await screen.findByRole('status')).textContent).toMatch(
    /^Restored: mail for alice goes to alice@example.com again/,
  );
  expect(await calls.find((request) => request.method === 'POST')!.json()).toEqual({ token: '7.old' });
  cleanup();
  answer = () =>
    envelope(422, { code: 422, message: 'this link was already used', data: { error: 'restore_token_spent' } });
  render(<RestoreEmail />);
  fireEvent.click(screen.getByRole('button', { name: 'Restore this address and sign out everywhere' }));
  expect((await screen.findByRole('alert')).textContent).toBe('this link was already used');
});

it("drops the new password's issue once it is changed, but not a refusal of the link itself", async () => {
  history.replaceState(null, '', '/ui/developer/reset?token=7.abc');
  let answer = () =>
    envelope(422, {
      code: 422,
      message: 'validation failed',
      data: {
        error: 'validation_failed',
        issues: [{ path: 'password', message: 'New password must be 6 to 128 characters.' }],
      },
    });
  serviceStandIn(() => answer());
  render(<ResetPassword />);
  const password = screen.getByLabelText('New password');
  const form = screen.getByRole('button', { name: 'Set the password' }).closest('form')!;
  fireEvent.submit(form);
  expect(await screen.findByText('New password must be 6 to 128 characters.')).not.toBeNull();
  fireEvent.input(password, { target: { value: 'brand-new' } });
  expect(screen.queryByText('New password must be 6 to 128 characters.')).toBeNull();
  expect(password.getAttribute('aria-invalid')).toBeNull();

  answer = () =>
    envelope(422, { code: 422, message: 'this link was already used', data: { error: 'reset_token_spent' } });
  fireEvent.submit(form);
  expect(await screen.findByText('this link was already used')).not.toBeNull();
  fireEvent.input(password, { target: { value: 'brand-newer' } });
  expect(screen.getByText('this link was already used')).not.toBeNull();
});

it('drops the issue of the login once it is changed', async () => {
  withMail(true, () =>
    envelope(422, {
      code: 422,
      message: 'validation failed',
      data: {
        error: 'validation_failed',
        issues: [{ path: 'login', message: 'Username or e-mail is required: your username or e-mail address.' }],
      },
    }),
  );
  render(<ForgotPassword />);
  fireEvent.submit(screen.getByRole('button', { name: 'Mail me a link' }).closest('form')!);
  expect(await screen.findByText('Username or e-mail is required: your username or e-mail address.')).not.toBeNull();
  fireEvent.input(screen.getByLabelText('Username or e-mail'), { target: { value: 'alice' } });
  expect(screen.queryByText('Username or e-mail is required: your username or e-mail address.')).toBeNull();
});
