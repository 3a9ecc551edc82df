import { render, screen } from '@testing-library/preact';
import { App } from './app';

it('an address in neither area says there is no page there, with a link home', () => {
  globalThis.fetch = jest.fn(async () => new Response('{}', { status: 500 })) as typeof fetch;
  history.replaceState(null, '', '/ui/nowhere');
  render(<App />);
  expect(screen.getByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
  expect(screen.getByRole('link', { name: 'the developer center' }).getAttribute('href')).toBe('/ui/developer');
  expect(screen.queryByRole('heading', { name: 'Developer sign-in' })).toBeNull();
});
