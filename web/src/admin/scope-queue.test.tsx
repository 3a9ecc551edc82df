import { render, screen } from '@testing-library/preact';
import { ScopeQueue } from './scope-queue';
import { envelope } from '../../test/envelope';

const request = (name: string, status: string) => ({
  member_id: 7,
  username: 'alice',
  scope: name,
  name,
  reason: 'List the add-ons on our partner site',
  status,
  requested_at: '2026-11-23T10:00:00.000Z',
  reviewed_at: status === 'pending' ? null : '2026-11-23T10:05:00.000Z',
  reject_reason: null,
  revoke_reason: null,
});

beforeEach(() => {
  globalThis.fetch = jest.fn(async () =>
    envelope(200, { code: 0, message: 'ok', data: { list: [request('addons.read', 'approved'), request('member-groups.read', 'pending')], next: null } }),
  ) as typeof fetch;
});

describe('scope-request queue', () => {
  it("keeps each row's decision in a table cell of that row, the buttons laid out inside it", async () => {
    render(<ScopeQueue />);
    const revoke = await screen.findByRole('button', { name: 'Revoke addons.read for alice…' });
    // A flex cell drops out of table layout and its buttons drift beside another row.
    const cell = revoke.closest('td')!;
    expect(cell.classList.contains('actions')).toBe(false);
    expect(cell.getAttribute('data-label')).toBe('Decision');
    expect(revoke.closest('div.actions')?.parentElement).toBe(cell);
    expect(revoke.closest('tr')!.textContent).toContain('addons.read');
    expect(revoke.closest('tr')!.textContent).not.toContain('member-groups.read');

    const approve = screen.getByRole('button', { name: 'Approve member-groups.read for alice' });
    // Each row's buttons say whose request they decide: a list of "Reject…" tells nothing apart.
    expect(screen.getByRole('button', { name: 'Reject member-groups.read for alice…' }).closest('tr')).toBe(approve.closest('tr'));
    expect(approve.closest('td')!.classList.contains('actions')).toBe(false);
    expect(approve.closest('tr')!.textContent).toContain('member-groups.read');
  });

  it('names whose request it is: the username, with the member id', async () => {
    render(<ScopeQueue />);
    const revoke = await screen.findByRole('button', { name: 'Revoke addons.read for alice…' });
    const member = revoke.closest('tr')!.querySelector('td[data-label="Member"]')!;
    expect(member.textContent).toBe('alice #7');
  });

  it('shows scope names unbroken', async () => {
    render(<ScopeQueue />);
    const name = await screen.findByText('member-groups.read');
    expect(name.tagName).toBe('CODE');
    expect(name.classList.contains('scope')).toBe(true);
  });
});
