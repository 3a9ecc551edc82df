import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { AdminArea } from './area';
import type { Schemas } from '../api/client';
import { adminContext, envelope } from '../../test/envelope';

type Permission = Schemas['AdminContext']['account']['permissions'][number];

/** The service as the console meets it: /context with these permissions, and an empty answer to every list. */
function service(permissions: Permission[], context: () => Response = () => adminContext(permissions)) {
  const asked: string[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    asked.push(url.pathname);
    if (url.pathname.endsWith('/context')) return context();
    return envelope(200, { code: 0, message: 'ok', data: { list: [], next: null } });
  }) as typeof fetch;
  return asked;
}

beforeEach(() => history.replaceState(null, '', '/ui/admin'));

describe('a screen the account may not use', () => {
  it('says which permission it needs and links to the screens the account may use, instead of another screen', async () => {
    service(['audit.read']);
    render(<AdminArea path="/admin/credentials" />);
    expect((await screen.findByTestId('no-access')).textContent).toBe(
      'You do not have access to Credentials: it needs the permission credential.review.',
    );
    const main = screen.getByRole('heading', { name: 'No access to Credentials' }).closest('section')!;
    expect([...main.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Audit', '/ui/admin/audit'],
      ['Contract', '/ui/admin/contract'],
      ['Your account', '/ui/admin/account'],
    ]);
    expect(screen.queryByRole('heading', { name: 'Member history' })).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Administrator console' })).not.toBeNull();
  });

  it('says there is no page at an unknown address, with a link home', async () => {
    service(['audit.read']);
    render(<AdminArea path="/admin/nowhere" />);
    expect(await screen.findByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
    expect(screen.getByRole('link', { name: "the administrator console's first screen" }).getAttribute('href')).toBe(
      '/ui/admin',
    );
    expect(screen.queryByRole('heading', { name: 'Member history' })).toBeNull();
  });
});

describe('screens of every administrator', () => {
  it('"Your account" is in the navigation of an administrator without any permission, naming who is signed in', async () => {
    service([]);
    render(<AdminArea path="/admin/account" />);
    expect(await screen.findByRole('heading', { name: 'Change your password' })).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Your account' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('carol', { selector: 'strong' })).not.toBeNull();
  });

  it("the invitation's page is shown signed out, not the sign-in", async () => {
    service([], () => envelope(401, { code: 401, message: 'log in first', data: { error: 'not_logged_in' } }));
    render(<AdminArea path="/admin/invitation" />);
    expect(await screen.findByRole('heading', { name: 'Choose your administrator password' })).not.toBeNull();
    expect(screen.queryByLabelText('Username')).toBeNull();
  });
});

describe('where an administrator lands', () => {
  it.each([
    [['addon.view', 'audit.read'], '/ui/admin/audit'],
    [['audit.read'], '/ui/admin/audit'],
    [['addon.view', 'addon.manage', 'credential.review'], '/ui/admin/credentials'],
    [['addon.view'], '/ui/admin/addons'],
    [[], '/ui/admin/contract'],
  ] as [Permission[], string][])('with %j on %s', async (permissions, landing) => {
    service(permissions);
    render(<AdminArea path="/admin" />);
    await waitFor(() => expect(location.pathname).toBe(landing));
  });
});

it('a failed load of the permissions offers to try again, and trying again loads them', async () => {
  let fail = true;
  const asked = service(['audit.read'], () =>
    fail
      ? envelope(500, { code: 500, message: 'internal error', data: { error: 'internal' } })
      : adminContext(['audit.read']),
  );
  render(<AdminArea path="/admin/audit" />);
  expect((await screen.findByRole('alert')).textContent).toContain('internal error');
  fail = false;
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { name: 'Member history' })).not.toBeNull();
  expect(asked.filter((p) => p.endsWith('/context'))).toHaveLength(2);
});

describe('an address of one thing (a deep link, opened anew or reloaded)', () => {
  const history7 = { member_id: 7, username: 'alice', events: [] };
  const helpdesk = {
    key: 'helpdesk',
    name: 'Helpdesk',
    version: '1.0.0',
    description: 'Tickets',
    author: 'Acme',
    installed: false,
    installed_version: null,
    enabled: false,
    show_menu: false,
  };
  const wiki = { ...helpdesk, key: 'wiki', name: 'Wiki' };

  /** The service with an auditor's and add-on viewer's permissions: one member's history, two add-ons. */
  function deepService(permissions: Permission[] = ['audit.read', 'addon.view']) {
    const asked: string[] = [];
    globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      asked.push(url.pathname);
      if (url.pathname.endsWith('/context')) return adminContext(permissions);
      if (url.pathname.endsWith('/credentials/7/history'))
        return envelope(200, { code: 0, message: 'ok', data: history7 });
      if (url.pathname.endsWith('/audit/members'))
        return envelope(200, { code: 0, message: 'ok', data: { member_id: 7, username: 'alice' } });
      if (url.pathname.endsWith('/addons'))
        return envelope(200, { code: 0, message: 'ok', data: { list: [helpdesk, wiki] } });
      return envelope(404, { code: 404, message: 'not found', data: { error: 'not_found' } });
    }) as typeof fetch;
    return asked;
  }

  it("/admin/audit/members/7 shows member 7's history, under the Audit screen", async () => {
    const asked = deepService();
    history.replaceState(null, '', '/ui/admin/audit/members/7');
    render(<AdminArea path="/admin/audit/members/7" />);
    expect(await screen.findByTestId('history-found')).not.toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('history-found').textContent).toBe('History of alice (member #7): 0 events.'),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Member id, username or API id').value).toBe('#7');
    expect(asked).toContain('/api/v1/credentials/7/history');
    expect(screen.getByRole('link', { name: 'Audit' }).getAttribute('aria-current')).toBe('page');
  });

  it('a member address without a member id is no page; without the permission, says which it needs', async () => {
    deepService();
    const { unmount } = render(<AdminArea path="/admin/audit/members/alice" />);
    expect(await screen.findByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
    expect(screen.getByRole('link', { name: 'the audit' }).getAttribute('href')).toBe('/ui/admin/audit');
    unmount();
    const asked = deepService(['addon.view']);
    render(<AdminArea path="/admin/audit/members/7" />);
    expect((await screen.findByTestId('no-access')).textContent).toBe(
      'You do not have access to Audit: it needs the permission audit.read.',
    );
    expect(asked).not.toContain('/api/v1/credentials/7/history');
  });

  it('/admin/addons/wiki shows that add-on alone, with the way back to every add-on; each card links to its own address', async () => {
    deepService();
    const { unmount } = render(<AdminArea path="/admin/addons/wiki" />);
    expect(await screen.findByRole('heading', { name: 'Wiki 1.0.0' })).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'Helpdesk 1.0.0' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Every add-on' }).getAttribute('href')).toBe('/ui/admin/addons');
    unmount();
    render(<AdminArea path="/admin/addons" />);
    expect((await screen.findByRole('link', { name: 'Helpdesk' })).getAttribute('href')).toBe(
      '/ui/admin/addons/helpdesk',
    );
  });

  it('an add-on the catalogue does not hold is said so', async () => {
    deepService();
    render(<AdminArea path="/admin/addons/nothing" />);
    expect(await screen.findByText('The catalogue holds no add-on with the key "nothing".')).not.toBeNull();
  });
});
