import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ScopeQueue } from './scope-queue';
import type { Schemas } from '../api/client';
import { envelope, serviceStandIn } from '../../test/envelope';
import { scopeRequestOf } from '../../test/scope-request';

const request = (name: string, status: Schemas['ScopeRequest']['status'], member_id = 7, username = 'alice') =>
  scopeRequestOf({
    member_id,
    username,
    name,
    status,
    reviewed_at: status === 'pending' ? null : '2026-11-23T10:05:00.000Z',
  });

beforeEach(() => {
  history.replaceState(null, '', '/ui/admin/scopes');
  globalThis.fetch = jest.fn(async () =>
    envelope(200, {
      code: 0,
      message: 'ok',
      data: { list: [request('addons.read', 'approved'), request('member-groups.read', 'pending')], next: null },
    }),
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
    expect(screen.getByRole('button', { name: 'Reject member-groups.read for alice…' }).closest('tr')).toBe(
      approve.closest('tr'),
    );
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

describe('scope-request queue at scale', () => {
  const counts = { pending: 61, approved: 3, rejected: 1, revoked: 0 };
  /** 61 pending requests, pages of 50 by cursor, a search by username. */
  function service() {
    return serviceStandIn((url) => {
      const q = url.searchParams.get('q');
      const all = Array.from({ length: 61 }, (_, i) =>
        request('addons.read', 'pending', i + 1, `member${i + 1}`),
      ).filter((r) => !q || r.username!.includes(q));
      const start = url.searchParams.get('after') === 'c50' ? 50 : 0;
      return envelope(200, {
        code: 0,
        message: 'ok',
        data: {
          list: all.slice(start, start + 50),
          next: start + 50 < all.length ? 'c50' : null,
          counts: { ...counts, pending: all.length },
        },
      });
    });
  }
  const lists = (calls: Request[]) =>
    calls.filter((c) => new URL(c.url).pathname.endsWith('/scope-requests')).map((c) => new URL(c.url).searchParams);

  it('counts each status and pages on the service, the page in the address', async () => {
    const calls = service();
    render(<ScopeQueue />);
    expect(await screen.findByText('1–50 of 61')).not.toBeNull();
    const options = [...(screen.getByLabelText('Status') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(options).toEqual(['all (65)', 'pending (61)', 'approved (3)', 'rejected (1)', 'revoked (0)']);
    expect(lists(calls)[0]!.get('limit')).toBe('50');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51–61 of 61')).not.toBeNull();
    expect(location.search).toBe('?after=c50');
    expect(lists(calls).at(-1)!.get('after')).toBe('c50');
  });

  it('reads filter and search from the address and sends them to the service', async () => {
    history.replaceState(null, '', '/ui/admin/scopes?status=all&q=member6');
    const calls = service();
    render(<ScopeQueue />);
    expect(await screen.findByRole('cell', { name: /^member61 / })).not.toBeNull();
    expect((screen.getByLabelText('Search by username or API id') as HTMLInputElement).value).toBe('member6');
    expect(lists(calls)[0]!.get('q')).toBe('member6');
    expect(lists(calls)[0]!.has('status')).toBe(false);
    fireEvent.input(screen.getByLabelText('Search by username or API id'), { target: { value: 'member1' } });
    fireEvent.submit(screen.getByRole('search'));
    await waitFor(() => expect(location.search).toBe('?status=all&q=member1'));
  });
});

it('a decision too late says who decided meanwhile and when, and keeps the reason typed', async () => {
  history.replaceState(null, '', '/ui/admin/scopes');
  let decided = false;
  serviceStandIn((url) => {
    if (url.pathname.endsWith('/reject')) {
      decided = true;
      return envelope(422, {
        code: 422,
        message:
          'the scope "member-groups.read" is approved: only a pending request can be decided: bob decided it at 2026-11-23T10:07:00.000Z',
        data: { error: 'scope_not_pending', decided_by: 'bob', decided_at: '2026-11-23T10:07:00.000Z' },
      });
    }
    const list = [request('member-groups.read', decided ? 'approved' : 'pending')];
    return envelope(200, {
      code: 0,
      message: 'ok',
      data: {
        list,
        next: null,
        counts: { pending: decided ? 0 : 1, approved: decided ? 1 : 0, rejected: 0, revoked: 0 },
      },
    });
  });
  render(<ScopeQueue />);
  fireEvent.click(await screen.findByRole('button', { name: 'Reject member-groups.read for alice…' }));
  fireEvent.input(screen.getByLabelText('Reason for rejecting member-groups.read for alice'), {
    target: { value: 'the purpose is vague' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Reject member-groups.read for alice' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toMatch(
    /^Too late: bob decided it on .+2026.+\. The list now shows where it stands\. What you typed is kept here: “the purpose is vague”$/,
  );
  await waitFor(() => expect(document.activeElement).toBe(alert));
});
