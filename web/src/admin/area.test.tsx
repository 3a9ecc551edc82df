import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { AdminArea } from './area';
import type { Schemas } from '../api/client';
import { envelope } from '../../test/envelope';

type Permission = Schemas['AdminContext']['account']['permissions'][number];

/** The service as the console meets it: /context with these permissions, and an empty answer to every list. */
function service(permissions: Permission[], context: () => Response = () => envelope(200, { code: 0, message: 'ok', data: { account: { id: 2, username: 'carol', is_super: false, role_id: 2, permissions }, role_groups: [] } })) {
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
    render(<AdminArea path="/admin/credentials" notice="" />);
    expect((await screen.findByTestId('no-access')).textContent).toBe('You do not have access to Credentials: it needs the permission credential.review.');
    const main = screen.getByRole('heading', { name: 'No access to Credentials' }).closest('section')!;
    expect([...main.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Audit', '/ui/admin/audit'],
      ['Contract', '/ui/admin/contract'],
    ]);
    expect(screen.queryByRole('heading', { name: 'Credential history' })).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Administrator console' })).not.toBeNull();
  });

  it('says there is no page at an unknown address, with a link home', async () => {
    service(['audit.read']);
    render(<AdminArea path="/admin/nowhere" notice="" />);
    expect(await screen.findByRole('heading', { name: 'There is no page at this address' })).not.toBeNull();
    expect(screen.getByRole('link', { name: "the administrator console's first screen" }).getAttribute('href')).toBe('/ui/admin');
    expect(screen.queryByRole('heading', { name: 'Credential history' })).toBeNull();
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
    render(<AdminArea path="/admin" notice="" />);
    await waitFor(() => expect(location.pathname).toBe(landing));
  });
});

it('a failed load of the permissions offers to try again, and trying again loads them', async () => {
  let fail = true;
  const asked = service(['audit.read'], () => (fail ? envelope(500, { code: 500, message: 'internal error', data: { error: 'internal' } }) : envelope(200, { code: 0, message: 'ok', data: { account: { id: 2, username: 'carol', is_super: false, role_id: 2, permissions: ['audit.read'] }, role_groups: [] } })));
  render(<AdminArea path="/admin/audit" notice="" />);
  expect((await screen.findByRole('alert')).textContent).toContain('internal error');
  fail = false;
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { name: 'Credential history' })).not.toBeNull();
  expect(asked.filter((p) => p.endsWith('/context'))).toHaveLength(2);
});
