import { render, screen } from '@testing-library/preact';
import { SignIn } from '../ui/sign-in';
import { envelope, serviceStandIn } from '../../test/envelope';

const status = (data: { enabled: boolean; display_name: string | null; password_sign_in: string }) =>
  serviceStandIn(() => envelope(200, { code: 0, message: 'ok', data }));

it('offers "Sign in with" the provider under the administrator sign-in when the service has single sign-on', async () => {
  const calls = status({ enabled: true, display_name: 'Corp SSO', password_sign_in: 'everyone' });
  render(<SignIn realm="admin" onSignedIn={() => undefined} />);
  const link = await screen.findByRole('link', { name: 'Sign in with Corp SSO' });
  expect(link.getAttribute('href')).toBe('/api/v1/admin/sso/login');
  expect(calls.some((request) => new URL(request.url).pathname === '/api/v1/admin/sso')).toBe(true);
});

it('offers no single sign-on when the service has none', async () => {
  const calls = status({ enabled: false, display_name: null, password_sign_in: 'everyone' });
  render(<SignIn realm="admin" onSignedIn={() => undefined} />);
  await screen.findByRole('button', { name: 'Sign in' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(calls.length).toBe(1);
  expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
});

it('asks nothing about single sign-on on the developer sign-in', () => {
  const calls = status({ enabled: true, display_name: 'Corp SSO', password_sign_in: 'everyone' });
  render(<SignIn realm="developer" onSignedIn={() => undefined} />);
  expect(calls).toHaveLength(0);
  expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
});
