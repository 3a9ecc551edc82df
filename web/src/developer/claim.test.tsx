import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { navigate, usePath } from '../router';
import { Claim } from './claim';
import { envelope, serviceStandIn } from '../../test/envelope';

const KEY = { apiid: 'ak_test0000000000000000', apikey: 'sk_secret-shown-once' };

/** The claim screen where the console's router puts it, so that leaving it is real. */
function ClaimRoute({ onClaimed }: { onClaimed: () => void }) {
  return usePath() === '/developer/claim' ? <Claim status="approved" onClaimed={onClaimed} /> : <p>dashboard</p>;
}

/** The service as the claim screen meets it: a CSRF token, then the claim's answer. */
function service(claim: () => Response) {
  return serviceStandIn(() => claim());
}

describe('claim screen', () => {
  const writeText = jest.fn(async () => {});
  beforeAll(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true }));
  beforeEach(() => history.replaceState(null, '', '/ui/developer/claim'));

  it('shows the key once with a copy button, asks before leaving, and forgets it once stored', async () => {
    const calls = service(() => envelope(200, { code: 0, message: 'claimed', data: KEY }));
    const onClaimed = jest.fn();
    render(<ClaimRoute onClaimed={onClaimed} />);

    fireEvent.click(screen.getByRole('button', { name: 'Claim the key' }));
    await screen.findByText(KEY.apikey);
    const claim = calls.find((c) => c.url.endsWith('/developer/claim'))!;
    expect(claim.method).toBe('POST');
    expect(claim.headers.get('X-CSRF-Token')).toBe('token-1');

    fireEvent.click(screen.getByRole('button', { name: 'Copy the key' }));
    await screen.findByText('Copied to the clipboard.');
    expect(writeText).toHaveBeenCalledWith(KEY.apikey);

    // Asked in the page; staying keeps the key and the address.
    navigate('/developer');
    const asked = await screen.findByRole('dialog', { name: 'Leave without storing it?' });
    expect(asked.textContent).toContain('shown only this once');
    fireEvent.click(within(asked).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location.pathname).toBe('/ui/developer/claim');
    expect(screen.getByText(KEY.apikey)).not.toBeNull();

    // The browser's back button asks the same, and staying puts the address back.
    history.pushState(null, '', '/ui/developer');
    dispatchEvent(new PopStateEvent('popstate'));
    expect(location.pathname).toBe('/ui/developer/claim');
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location.pathname).toBe('/ui/developer/claim');

    const done = screen.getByRole('button', { name: 'Done: hide the key' }) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have stored the key somewhere safe'));
    fireEvent.click(done);
    await waitFor(() => expect(onClaimed).toHaveBeenCalled());
    expect(screen.queryByText(KEY.apikey)).toBeNull();
    expect(location.pathname).toBe('/ui/developer');
    expect(screen.getByText('dashboard')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps "Claim your credential" as the screen\'s h1 and, as the key appears, puts focus on it with the warning that it shows once', async () => {
    service(() => envelope(200, { code: 0, message: 'claimed', data: KEY }));
    render(<ClaimRoute onClaimed={() => {}} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Claim your credential' })).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Claim the key' }));
    await screen.findByText(KEY.apikey);
    expect(screen.getByRole('heading', { level: 1, name: 'Claim your credential' })).not.toBeNull();
    const heading = screen.getByRole('heading', { name: 'Your API key' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const warning = document.getElementById(heading.getAttribute('aria-describedby')!)!;
    expect(warning.textContent).toContain('This is the only time the key is shown');
  });

  it("shows the service's refusal in place and no key", async () => {
    service(() =>
      envelope(422, { code: 422, message: 'this credential was claimed already', data: { error: 'already_claimed' } }),
    );
    render(<Claim status="approved" onClaimed={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Claim the key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('this credential was claimed already');
    expect(screen.queryByText(/sk_/)).toBeNull();
  });

  it('offers nothing to claim unless the application is approved, and says in plain words what to do next', () => {
    const { unmount } = render(<Claim status="pending" onClaimed={() => {}} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Claim your credential' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Claim the key' })).toBeNull();
    expect(screen.getByText(/waiting for an administrator to review it/)).not.toBeNull();
    expect(screen.getByRole('link', { name: 'See its status on your dashboard' }).getAttribute('href')).toBe(
      '/ui/developer',
    );
    expect(document.body.textContent).not.toMatch(/credential is pending|POST \//);
    unmount();

    render(<Claim status="none" onClaimed={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Claim the key' })).toBeNull();
    expect(screen.getByText(/you have not applied for API credentials/)).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Apply on your dashboard' }).getAttribute('href')).toBe('/ui/developer');
    expect(document.body.textContent).not.toMatch(/credential is none/);
  });
});
