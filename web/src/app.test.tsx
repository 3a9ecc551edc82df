import { act, render, screen, waitFor } from '@testing-library/preact';
import { App } from './app';
import { navigate } from './router';

const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

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
    globalThis.fetch = jest.fn(async () => envelope(401, { code: 401, message: 'sign in first', data: { error: 'not_logged_in' } })) as typeof fetch;
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
