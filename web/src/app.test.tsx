import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { App } from './app';
import { navigate } from './router';
import { adminContext, envelope } from '../test/envelope';

it('an address in neither area says there is no page there, with a link home', () => {
  globalThis.fetch = jest.fn(async () => new Response('{}', { status: 500 })) as typeof fetch;
  history.replaceState(null, '', '/ui/nowhere');
  render(<App />);
  expect(screen.getByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
  expect(screen.getByRole('link', { name: 'the developer center' }).getAttribute('href')).toBe('/ui/developer');
  expect(screen.queryByRole('heading', { name: 'Developer sign-in' })).toBeNull();
  expect(document.title).toBe('There is no page at this address – Platform');
});

it('the front door says what the platform is and offers the developer center, the console and the API reference', () => {
  globalThis.fetch = jest.fn(async () => new Response('{}', { status: 500 })) as typeof fetch;
  history.replaceState(null, '', '/ui/');
  render(<App />);
  expect(screen.getByRole('heading', { name: 'Platform API' })).not.toBeNull();
  expect(screen.getByText(/partner servers call its open API with scoped credentials/)).not.toBeNull();
  const main = screen.getByRole('main');
  const links = [...main.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
  expect(links).toEqual([
    ['Developer center', '/ui/developer'],
    ['Administrator console', '/ui/admin'],
    ['API reference', '/ui/developer/reference'],
  ]);
  expect(document.title).toBe('Welcome – Platform');
  expect(globalThis.fetch).not.toHaveBeenCalled();
});

describe('a screen change', () => {
  beforeEach(() => {
    // Signed out: every screen of the developer center is its sign-in or registration.
    globalThis.fetch = jest.fn(async () =>
      envelope(401, { code: 401, message: 'sign in first', data: { error: 'not_logged_in' } }),
    ) as typeof fetch;
  });

  it('names the screen and its area in the window title', async () => {
    history.replaceState(null, '', '/ui/developer/register');
    render(<App />);
    await waitFor(() => expect(document.title).toBe('Register as a developer – Developer center – Platform'));
    act(() => navigate('/developer/login'));
    await waitFor(() => expect(document.title).toBe('Developer sign-in – Developer center – Platform'));
  });

  it("puts focus on the new screen's heading, not on the page; a first load leaves focus where the browser puts it", async () => {
    history.replaceState(null, '', '/ui/developer/register');
    render(<App />);
    const register = screen.getByRole('heading', { level: 1, name: 'Register as a developer' });
    await waitFor(() => expect(document.title).toContain('Register'));
    expect(document.activeElement).not.toBe(register);

    screen.getByRole('link', { name: 'Administrator console' }).focus();
    act(() => navigate('/developer/login'));
    const signIn = await screen.findByRole('heading', { level: 1, name: 'Developer sign-in' });
    await waitFor(() => expect(document.activeElement).toBe(signIn));
    expect(signIn.getAttribute('tabindex')).toBe('-1');
  });
});

describe("a member's history at its own address", () => {
  let asked: string[];
  beforeEach(() => {
    asked = [];
    globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      asked.push(url.pathname);
      if (url.pathname.endsWith('/context')) return adminContext(['audit.read']);
      const member = Number(/\/credentials\/(\d+)\/history$/.exec(url.pathname)?.[1]);
      if (member)
        return envelope(200, {
          code: 0,
          message: 'ok',
          data: { member_id: member, username: `member${member}`, events: [] },
        });
      return envelope(200, { code: 0, message: 'ok', data: { member_id: 8, username: 'member8' } });
    }) as typeof fetch;
  });

  it('opens on that history when loaded there, and follows the back and forward buttons to another member', async () => {
    history.replaceState(null, '', '/ui/admin/audit/members/7');
    render(<App />);
    await waitFor(() =>
      expect(screen.getByTestId('history-found').textContent).toBe('History of member7 (member #7): 0 events.'),
    );
    act(() => {
      history.pushState(null, '', '/ui/admin/audit/members/8');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await waitFor(() =>
      expect(screen.getByTestId('history-found').textContent).toBe('History of member8 (member #8): 0 events.'),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Member id, username or API id').value).toBe('#8');
    expect(asked.filter((p) => p.endsWith('/history'))).toEqual([
      '/api/v1/credentials/7/history',
      '/api/v1/credentials/8/history',
    ]);

    // Back at the search's own address (the Audit link), the search starts over.
    act(() => navigate('/admin/audit'));
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Member id, username or API id').value).toBe(''),
    );
    expect(screen.getByTestId('history-found').textContent).toBe('');
    expect(screen.queryByRole('heading', { level: 2, name: /member8/ })).toBeNull();
  });

  it('a search puts the member found in the address, read once, and leaves focus at the form', async () => {
    history.replaceState(null, '', '/ui/admin/audit');
    render(<App />);
    const who = await screen.findByLabelText('Member id, username or API id');
    fireEvent.input(who, { target: { value: 'member8' } });
    const show = screen.getByRole('button', { name: 'Show the history' });
    show.focus();
    fireEvent.submit(who.closest('form')!);
    await waitFor(() => expect(location.pathname).toBe('/ui/admin/audit/members/8'));
    // The screen renders again at its new address; its effects run after the next frame (jsdom: 100 ms at most).
    await act(() => new Promise((done) => setTimeout(done, 200)));
    expect(screen.getByTestId('history-found').textContent).toBe('History of member8 (member #8): 0 events.');
    expect(document.activeElement).toBe(show);
    expect(asked.filter((p) => p.endsWith('/history'))).toEqual(['/api/v1/credentials/8/history']);
  });
});
