import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { App } from '../app';
import { envelope, serviceStandIn } from '../../test/envelope';
import { scopeRequestOf } from '../../test/scope-request';

const context = { account: { username: 'root', is_super: true, permissions: ['credential.review'] }, role_groups: [] };
const pending = scopeRequestOf();

/** An administrator's session that ends at the first decision, until signed in again. */
function service() {
  let signedIn = true;
  let sessionEnds = true;
  return serviceStandIn((url) => {
    if (url.pathname.endsWith('/admin/login')) {
      signedIn = true;
      return envelope(200, { code: 0, message: 'signed in', data: context.account });
    }
    if (!signedIn)
      return envelope(401, {
        code: 401,
        message: 'sign in as an administrator first',
        data: { error: 'admin_not_logged_in' },
      });
    if (url.pathname.endsWith('/context')) return envelope(200, { code: 0, message: 'ok', data: context });
    if (url.pathname.endsWith('/scope-requests'))
      return envelope(200, {
        code: 0,
        message: 'ok',
        data: { list: [pending], next: null, counts: { pending: 1, approved: 0, rejected: 0, revoked: 0 } },
      });
    if (url.pathname.endsWith('/reject') && sessionEnds) {
      sessionEnds = false;
      signedIn = false;
      return envelope(401, { code: 401, message: 'your session has ended', data: { error: 'session_expired' } });
    }
    if (url.pathname.endsWith('/reject'))
      return envelope(200, {
        code: 0,
        message: 'rejected',
        data: { ...pending, status: 'rejected', reject_reason: 'no' },
      });
    return envelope(404, { code: 404, message: 'no such endpoint', data: { error: 'not_found' } });
  });
}

beforeEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/ui/admin/scopes?status=pending');
});

it('asks to sign in again over the screen, and keeps the screen, its filter and the typed reason', async () => {
  const calls = service();
  render(<App />);
  fireEvent.click(await screen.findByRole('button', { name: 'Reject addons.read for alice…' }));
  fireEvent.input(screen.getByLabelText('Reason for rejecting addons.read for alice'), {
    target: { value: 'the purpose is not said' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Reject addons.read for alice' }));

  const dialog = await screen.findByRole('dialog', { name: 'Your session has ended: sign in again' });
  await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Username')));
  expect(screen.getByRole('main').hasAttribute('inert')).toBe(true);
  expect(location.pathname + location.search).toBe('/ui/admin/scopes?status=pending');
  expect(dialog.textContent).toContain('What you typed on this screen is kept');

  fireEvent.input(screen.getByLabelText('Username'), { target: { value: 'root' } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'secret-password' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.getByRole('main').hasAttribute('inert')).toBe(false);
  expect((screen.getByLabelText('Reason for rejecting addons.read for alice') as HTMLTextAreaElement).value).toBe(
    'the purpose is not said',
  );
  expect(screen.getByRole('status').textContent).toContain('Signed in again');
  // Never the password: only the reason is kept in the tab's storage.
  expect(JSON.stringify({ ...sessionStorage })).not.toContain('secret-password');

  fireEvent.click(screen.getByRole('button', { name: 'Reject addons.read for alice' }));
  await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/reject'))).toHaveLength(2));
  expect(
    await calls
      .filter((c) => c.url.endsWith('/reject'))[1]!
      .clone()
      .json(),
  ).toEqual({ reason: 'the purpose is not said' });
  await waitFor(() => expect(sessionStorage.length).toBe(0));
});

it('after a reload, the reason typed before is in its box again', async () => {
  sessionStorage.setItem('draft:/admin/scopes:reason-reject-7-addons.read', 'typed before the reload');
  service();
  render(<App />);
  const box = (await screen.findByLabelText('Reason for rejecting addons.read for alice')) as HTMLTextAreaElement;
  expect(box.value).toBe('typed before the reload');
});
