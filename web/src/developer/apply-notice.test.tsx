import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { credentialOf } from '../../test/credential';
import { envelope, serviceStandIn } from '../../test/envelope';
import { usePath } from '../router';
import { DeveloperArea } from './area';

const none = credentialOf();

it("an application says what was done in the console's words, never the service's message, with focus on it", async () => {
  let applied = false;
  serviceStandIn((url, request) => {
    if (url.pathname.endsWith('/developer/credential') && request.method === 'POST') {
      applied = true;
      return envelope(200, {
        code: 0,
        message: 'applied: an administrator will review the application',
        data: { ...none, status: 'pending' },
      });
    }
    const credential = applied ? { ...none, status: 'pending', applied_at: '2026-11-28T01:00:00.000Z' } : none;
    return envelope(200, {
      code: 0,
      message: 'ok',
      data: { member: { id: 7, username: 'alice', nickname: '', email: null, mobile: null }, credential, scopes: [] },
    });
  });
  history.replaceState(null, '', '/ui/developer');
  const Routed = () => <DeveloperArea path={usePath()} />;
  render(<Routed />);
  fireEvent.click(await screen.findByRole('button', { name: 'Apply for API credentials' }));
  const done = await screen.findByText('Application sent; an administrator will review it.');
  expect(done.getAttribute('role')).toBe('status');
  expect(screen.queryByText(/^applied:/)).toBeNull();
  await waitFor(() => expect(document.activeElement).toBe(done));
});
