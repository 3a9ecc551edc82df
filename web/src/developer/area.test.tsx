import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { navigate, usePath } from '../router';
import { DeveloperArea } from './area';
import { credentialOf } from '../../test/credential';
import { envelope } from '../../test/envelope';

const dashboard = {
  member: { id: 7, username: 'alice', nickname: '', email: null, mobile: null },
  credential: credentialOf(),
  scopes: [],
};

/** The dashboard's answers in turn: the network fails first when `down` is set, then the service answers. */
function service(first: 'down' | 'ok') {
  let calls = 0;
  globalThis.fetch = jest.fn(async () => {
    calls += 1;
    if (first === 'down' && calls === 1) throw new TypeError('Failed to fetch');
    return envelope(200, { code: 0, message: 'ok', data: dashboard });
  }) as typeof fetch;
  return () => calls;
}

it('a dashboard that failed to load keeps the navigation and tries again on request', async () => {
  const calls = service('down');
  render(<DeveloperArea path="/developer" />);
  expect((await screen.findByRole('alert')).textContent).toContain('the service cannot be reached');
  expect(screen.getByRole('navigation', { name: 'Developer center' })).not.toBeNull();
  expect(screen.getByRole('link', { name: 'API reference' })).not.toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { name: 'Hello, alice' })).not.toBeNull();
  expect(calls()).toBe(2);
});

it('reads the dashboard again on each screen, so an approval made meanwhile shows on Claim', async () => {
  let status = 'pending';
  globalThis.fetch = jest.fn(async () =>
    envelope(200, { code: 0, message: 'ok', data: { ...dashboard, credential: { ...dashboard.credential, status } } }),
  ) as typeof fetch;
  const { rerender } = render(<DeveloperArea path="/developer" />);
  await screen.findByRole('heading', { name: 'Hello, alice' });
  status = 'approved';
  rerender(<DeveloperArea path="/developer/claim" />);
  expect(await screen.findByRole('button', { name: /^Claim/ })).not.toBeNull();
});

it('an unknown address in the developer center says there is no page there instead of showing the dashboard', async () => {
  service('ok');
  render(<DeveloperArea path="/developer/nowhere" />);
  expect(await screen.findByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
  expect(screen.getByRole('link', { name: 'your dashboard' }).getAttribute('href')).toBe('/ui/developer');
  expect(screen.queryByRole('heading', { name: 'Hello, alice' })).toBeNull();
  expect(screen.getByRole('navigation', { name: 'Developer center' })).not.toBeNull();
});

describe('what a request did, said where the member lands', () => {
  const active = {
    ...dashboard.credential,
    status: 'active',
    apiid: 'ak_test0000000000000000',
    expires_at: '2999-01-01T00:00:00.000Z',
  };
  const offers = [{ name: 'addons.read', description: 'Read the installed add-ons', status: 'none' }];

  /** An active member's service: the dashboard (with the extension once asked), the scopes, and the writes' answers. */
  function activeService() {
    let extension: unknown = null;
    globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
      const path = new URL(request.url).pathname;
      if (path.endsWith('/developer/session'))
        return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
      if (path.endsWith('/developer/extension')) {
        extension = {
          expires_at: '2999-04-01T00:00:00.000Z',
          status: 'pending',
          reason: 'longer',
          reject_reason: null,
        };
        return envelope(200, {
          code: 0,
          message: 'requested: an administrator will decide',
          data: { ...active, extension },
        });
      }
      if (path.endsWith('/developer/scopes') && request.method === 'POST')
        return envelope(200, { code: 0, message: 'requested', data: { list: [] } });
      if (path.endsWith('/developer/scopes')) return envelope(200, { code: 0, message: 'ok', data: { list: offers } });
      if (path.endsWith('/developer/usage'))
        return envelope(200, { code: 0, message: 'ok', data: { last_used_at: null, days: [] } });
      if (path.endsWith('/developer/calls')) return envelope(200, { code: 0, message: 'ok', data: { list: [] } });
      return envelope(200, { code: 0, message: 'ok', data: { ...dashboard, credential: { ...active, extension } } });
    }) as typeof fetch;
  }

  /** The developer center where the console's router puts it, so that landing on the dashboard is real. */
  function Routed() {
    return <DeveloperArea path={usePath()} />;
  }

  it('an extension request says what was asked, in a status that stays once its form is gone, with focus on it', async () => {
    activeService();
    history.replaceState(null, '', '/ui/developer');
    render(<Routed />);
    fireEvent.input(await screen.findByLabelText('Why the key must live longer'), {
      target: { value: 'The contract runs another year' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask for the extension' }));
    const done = await screen.findByText(/^Extension to .* requested; an administrator will review it\.$/);
    expect(done.getAttribute('role')).toBe('status');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ask for the extension' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(done));
  });

  it('a scope request lands on the dashboard, which says what was requested, with focus on it', async () => {
    activeService();
    history.replaceState(null, '', '/ui/developer/scopes');
    render(<Routed />);
    fireEvent.click(await screen.findByLabelText(/addons\.read/));
    fireEvent.input(screen.getByLabelText('Purpose of use'), { target: { value: 'List the add-ons on our site' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request' }));
    const done = await screen.findByText('Scopes requested: addons.read; an administrator will review them.');
    expect(location.pathname).toBe('/ui/developer');
    expect(screen.getByRole('heading', { level: 1, name: 'Hello, alice' })).not.toBeNull();
    expect(done.getAttribute('role')).toBe('status');
    await waitFor(() => expect(document.activeElement).toBe(done));

    // The message belongs to that landing: another screen, and back, no longer shows it.
    act(() => navigate('/developer/reference'));
    act(() => navigate('/developer'));
    await screen.findByRole('heading', { level: 1, name: 'Hello, alice' });
    expect(screen.queryByText(/^Scopes requested/)).toBeNull();
  });
});

it('after registering, focus lands on the new dashboard, not on the page', async () => {
  let registered = false;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (url.endsWith('/developer/register')) {
      registered = true;
      return envelope(200, { code: 0, message: 'registered', data: { id: 7, username: 'alice' } });
    }
    if (!registered)
      return envelope(401, { code: 401, message: 'no member is logged in', data: { error: 'not_logged_in' } });
    // The dashboard of the new member comes after a while, as over a network.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return envelope(200, { code: 0, message: 'ok', data: dashboard });
  }) as typeof fetch;
  history.replaceState(null, '', '/ui/developer/register');
  const Routed = () => <DeveloperArea path={usePath()} />;
  render(<Routed />);
  fireEvent.input(await screen.findByLabelText('Username'), { target: { value: 'alice' } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'alice-password' } });
  fireEvent.input(screen.getByLabelText('E-mail'), { target: { value: 'alice@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Register' }));
  const heading = await screen.findByRole('heading', { name: 'Hello, alice' });
  await waitFor(() => expect(document.activeElement).toBe(heading));
});
