import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { DeveloperArea } from '../developer/area';
import { usePath } from '../router';
import { credentialOf } from '../../test/credential';
import { envelope, serviceStandIn } from '../../test/envelope';

const dashboard = {
  member: { id: 8, username: 'bob', nickname: '', email: null, mobile: null },
  credential: credentialOf(),
  scopes: [],
};

/** alice's account holds a second factor, bob's does not; the dashboard answers once someone is signed in. */
function service() {
  let signedIn = false;
  const logouts: string[] = [];
  serviceStandIn(async (url, request) => {
    if (url.pathname.endsWith('/developer/logout')) {
      logouts.push(request.headers.get('X-CSRF-Token') ?? '');
      return envelope(200, { code: 0, message: 'logged out', data: null });
    }
    if (url.pathname.endsWith('/developer/login')) {
      const { username } = (await request.json()) as { username: string };
      signedIn = username === 'bob';
      const data = signedIn ? { id: 8, username } : { second_factor_required: true };
      return envelope(200, { code: 0, message: 'ok', data });
    }
    if (url.pathname.endsWith('/second-factor/passkey/options'))
      return envelope(404, { code: 404, message: 'no passkey', data: { error: 'no_passkey' } });
    if (signedIn) return envelope(200, { code: 0, message: 'ok', data: dashboard });
    return envelope(401, { code: 401, message: 'log in first', data: { error: 'not_logged_in' } });
  });
  return logouts;
}

const signIn = (username: string) => {
  fireEvent.input(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }).closest('form')!);
};

it('the second-factor step leaves the sign-in’s links out, and leads back, abandoning the pending sign-in, to sign in with another account', async () => {
  const logouts = service();
  history.replaceState(null, '', '/ui/developer/login');
  const Routed = () => <DeveloperArea path={usePath()} />;
  render(<Routed />);
  await screen.findByRole('heading', { name: 'Developer sign-in' });
  expect(screen.getByRole('link', { name: 'Forgot password?' })).toBeTruthy();

  signIn('alice');
  await screen.findByRole('heading', { name: 'Second factor' });
  expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
  expect(screen.queryByRole('link', { name: 'Register as a developer' })).toBeNull();

  fireEvent.click(screen.getByRole('button', { name: 'Use another account' }));
  await screen.findByRole('heading', { name: 'Developer sign-in' });
  // The sign-in awaiting alice's code is abandoned, with the session's token.
  expect(logouts).toHaveLength(1);
  expect(logouts[0]).toBe('token-1');
  expect(screen.getByRole('link', { name: 'Register as a developer' })).toBeTruthy();
  const username = screen.getByLabelText('Username') as HTMLInputElement;
  expect([username.value, (screen.getByLabelText('Password') as HTMLInputElement).value]).toEqual(['', '']);
  await waitFor(() => expect(document.activeElement).toBe(username));

  signIn('bob');
  expect(await screen.findByRole('heading', { name: 'Hello, bob' })).toBeTruthy();
});
