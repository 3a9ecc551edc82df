import { act, render, screen } from '@testing-library/preact';
import { matchPath, navigate, pathFor, usePath } from './router';
import { ScreenHeading } from './ui/screen';

describe('an address with parameters', () => {
  it('gives the pattern its parameters, decoded', () => {
    expect(matchPath('/admin/audit/members/:id', '/admin/audit/members/7')).toEqual({ id: '7' });
    expect(matchPath('/admin/addons/:key', '/admin/addons/help%20desk')).toEqual({ key: 'help desk' });
  });

  it('is no address of the pattern when a fixed segment differs, a parameter is empty, or there are more or fewer segments', () => {
    expect(matchPath('/admin/audit/members/:id', '/admin/audit/people/7')).toBeNull();
    expect(matchPath('/admin/audit/members/:id', '/admin/audit/members/')).toBeNull();
    expect(matchPath('/admin/audit/members/:id', '/admin/audit/members/7/events')).toBeNull();
    expect(matchPath('/admin/audit/members/:id', '/admin/audit/members')).toBeNull();
    // Not a percent-encoding the browser could have sent: no address of the pattern, not an error.
    expect(matchPath('/admin/addons/:key', '/admin/addons/%E0%A4%A')).toBeNull();
  });

  it('is built with each parameter encoded, and read back as it was', () => {
    const path = pathFor('/admin/addons/:key', { key: 'a/b c' });
    expect(path).toBe('/admin/addons/a%2Fb%20c');
    expect(matchPath('/admin/addons/:key', path)).toEqual({ key: 'a/b c' });
    expect(pathFor('/admin/audit/members/:id', { id: 7 })).toBe('/admin/audit/members/7');
  });
});

/** A screen whose heading names the path shown, as the console's screens do. */
function Screen() {
  const path = usePath();
  return (
    <>
      <button type="button">elsewhere</button>
      <ScreenHeading>{path}</ScreenHeading>
    </>
  );
}

describe('moving to another address', () => {
  beforeEach(() => history.replaceState(null, '', '/ui/admin/audit'));

  it('to another screen, puts focus on its heading and a history entry behind it', () => {
    render(<Screen />);
    const before = history.length;
    act(() => navigate('/admin/audit/members/7'));
    expect(location.pathname).toBe('/ui/admin/audit/members/7');
    expect(history.length).toBe(before + 1);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: '/admin/audit/members/7' }));
  });

  it('within the screen (stay), the address follows and focus stays where the user is', () => {
    render(<Screen />);
    const button = screen.getByRole('button', { name: 'elsewhere' });
    button.focus();
    act(() => navigate('/admin/audit/members/7', { stay: true }));
    expect(screen.getByRole('heading', { name: '/admin/audit/members/7' })).not.toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
