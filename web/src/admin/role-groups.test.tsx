import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { RoleGroupsManager } from './role-groups';
import { envelope, serviceStandIn } from '../../test/envelope';

const PERMISSIONS = [
  { name: 'addon.view', description: 'See the application center' },
  { name: 'audit.read', description: 'Read the audit trail and export it' },
  { name: 'access.manage', description: 'Manage role groups and administrators' },
];

const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });
const ALL = new Set(PERMISSIONS.map((p) => p.name));

/** The service with one enabled group; a definition answers `define`. Answers the requests made and the bodies defined. */
function service(define: (body: { name: string; permissions: string[] }) => Response) {
  const groups = [{ id: 1, name: 'Operators', permissions: ['addon.view'], enabled: true }];
  const bodies: unknown[] = [];
  const calls = serviceStandIn(async ({ pathname: path }, request) => {
    if (path.endsWith('/permissions')) return ok({ list: PERMISSIONS });
    if (request.method === 'GET') return ok({ list: groups });
    if (path.endsWith('/disable')) {
      groups[0] = { ...groups[0]!, enabled: false };
      return ok(groups[0]);
    }
    const body = (await request.json()) as { name: string; permissions: string[] };
    bodies.push(body);
    const answer = define(body);
    if (answer.ok) groups.push({ id: 2, ...body, enabled: true });
    return answer;
  });
  return { calls, bodies };
}

describe('role groups screen', () => {
  it('drops the issue of the name, or of the permissions, once that one is changed', async () => {
    const issues = [
      { path: 'name', message: 'Name must be 1 to 64 characters.' },
      { path: 'permissions.0', message: 'permissions must be names from the registry' },
    ];
    service(() =>
      envelope(422, { code: 422, message: 'validation failed', data: { error: 'validation_failed', issues } }),
    );
    render(<RoleGroupsManager held={ALL} />);
    const audit = await screen.findByLabelText(/Read the audit trail and export it/);
    // Sent as it is: the service's issues, not the browser's own checks.
    fireEvent.submit(screen.getByRole('button', { name: 'Define' }).closest('form')!);
    expect(await screen.findByText('Name must be 1 to 64 characters.')).not.toBeNull();
    fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'Auditors' } });
    expect(screen.queryByText('Name must be 1 to 64 characters.')).toBeNull();
    expect(screen.getByText('permissions must be names from the registry')).not.toBeNull();
    fireEvent.click(audit);
    expect(screen.queryByText('permissions must be names from the registry')).toBeNull();
  });

  it('offers every permission of the registry as a labelled checkbox and defines a group with those ticked', async () => {
    const { bodies } = service((body) => ok({ id: 2, ...body, enabled: true }));
    render(<RoleGroupsManager held={ALL} />);
    fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'Auditors' } });
    fireEvent.click(await screen.findByLabelText(/Read the audit trail and export it/));
    fireEvent.click(screen.getByLabelText(/Manage role groups and administrators/));
    fireEvent.click(screen.getByRole('button', { name: 'Define' }));
    expect(await screen.findByText('Defined the role group Auditors (id 2).')).not.toBeNull();
    expect(bodies).toEqual([{ name: 'Auditors', permissions: ['audit.read', 'access.manage'] }]);
    const row = (await screen.findByRole('cell', { name: 'Auditors' })).closest('tr')!;
    expect(within(row).getByText('audit.read, access.manage')).not.toBeNull();
    // The form starts over: a second click would define nothing twice.
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/Read the audit trail/) as HTMLInputElement).checked).toBe(false);
  });

  it('shows the refusal beside the name, keeping what was typed', async () => {
    service(() =>
      envelope(422, {
        code: 422,
        message: 'a role group name has 1 to 64 characters',
        data: {
          error: 'invalid_role_group_name',
          issues: [{ path: 'name', message: 'a role group name has 1 to 64 characters' }],
        },
      }),
    );
    render(<RoleGroupsManager held={ALL} />);
    fireEvent.input(screen.getByLabelText(/^Name/), { target: { value: 'x'.repeat(3) } });
    fireEvent.click(screen.getByRole('button', { name: 'Define' }));
    await waitFor(() => expect(screen.getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true'));
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('xxx');
  });

  it('asks before disabling a group, then shows it disabled with a way to enable it', async () => {
    const { calls } = service(() => new Response(null, { status: 599 }));
    render(<RoleGroupsManager held={ALL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable Operators…' }));
    expect(calls.some((c) => c.url.endsWith('/disable'))).toBe(false);
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Disable Operators?' })).getByRole('button', { name: 'Disable' }),
    );
    expect(await screen.findByText('Disabled Operators: its administrators lost its permissions.')).not.toBeNull();
    expect(await screen.findByRole('button', { name: 'Enable Operators' })).not.toBeNull();
    expect(screen.getByText('disabled')).not.toBeNull();
  });
});
