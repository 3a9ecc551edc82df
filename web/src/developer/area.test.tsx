import { fireEvent, render, screen } from '@testing-library/preact';
import { DeveloperArea } from './area';

const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const dashboard = {
  member: { id: 7, username: 'alice', nickname: null, email: null, mobile: null },
  credential: { status: 'none', apiid: null, applied_at: null, reviewed_at: null, reject_reason: null, claimed_at: null, key_rotated_at: null, expires_at: null, revoked_at: null, revoke_reason: null, extension: null },
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
  render(<DeveloperArea path="/developer" notice="" />);
  expect((await screen.findByRole('alert')).textContent).toContain('the service cannot be reached');
  expect(screen.getByRole('navigation', { name: 'Developer center' })).not.toBeNull();
  expect(screen.getByRole('link', { name: 'API reference' })).not.toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { name: 'Hello, alice' })).not.toBeNull();
  expect(calls()).toBe(2);
});

it('an unknown address in the developer center says there is no page there instead of showing the dashboard', async () => {
  service('ok');
  render(<DeveloperArea path="/developer/nowhere" notice="" />);
  expect(await screen.findByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
  expect(screen.getByRole('link', { name: 'your dashboard' }).getAttribute('href')).toBe('/ui/developer');
  expect(screen.queryByRole('heading', { name: 'Hello, alice' })).toBeNull();
  expect(screen.getByRole('navigation', { name: 'Developer center' })).not.toBeNull();
});
