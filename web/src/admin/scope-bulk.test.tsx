import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { ScopeQueue } from './scope-queue';
import { envelope, serviceStandIn } from '../../test/envelope';
import { scopeRequestOf } from '../../test/scope-request';

const pending = (member_id: number, name = 'addons.read') =>
  scopeRequestOf({ member_id, username: `member${member_id}`, name });

type Item = { member_id: number; scope: string; decision: string; reason?: string };

/**
 * 61 pending scope requests (member 61 asks for two scopes), pages of 50 by cursor, the largest page
 * for "all matching"; the bulk endpoint refuses member 2's, decided meanwhile.
 */
function service() {
  const all = [...Array.from({ length: 60 }, (_, i) => pending(i + 1)), pending(61, 'member-groups.read')];
  return serviceStandIn(async (url, request) => {
    if (url.pathname.endsWith('/scope-requests/decisions')) {
      const { items } = (await request.clone().json()) as { items: Item[] };
      const results = items.map(({ member_id, scope }) =>
        member_id === 2
          ? { member_id, scope, ok: false, error: 'scope_not_pending', message: 'the scope "addons.read" is approved' }
          : { member_id, scope, ok: true },
      );
      return envelope(200, { code: 0, message: 'decided', data: { results } });
    }
    const limit = Number(url.searchParams.get('limit'));
    const start = url.searchParams.get('after') === 'c50' ? 50 : 0;
    return envelope(200, {
      code: 0,
      message: 'ok',
      data: {
        list: all.slice(start, start + limit),
        next: start + limit < all.length ? 'c50' : null,
        counts: { pending: all.length, approved: 0, rejected: 0, revoked: 0 },
      },
    });
  });
}

const decisions = async (calls: Request[]) =>
  Promise.all(
    calls
      .filter((c) => c.url.endsWith('/scope-requests/decisions'))
      .map(async (c) => ((await c.clone().json()) as { items: Item[] }).items),
  );

beforeEach(() => history.replaceState(null, '', '/ui/admin/scopes'));

it('approves the selected requests in one request, naming the count, the expiry and the one refused', async () => {
  const calls = service();
  render(<ScopeQueue />);
  fireEvent.click(await screen.findByRole('checkbox', { name: 'Select addons.read for member1' }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Select addons.read for member2' }));
  fireEvent.click(screen.getByRole('button', { name: 'Approve 2 selected scope requests' }));
  const notice = await screen.findByRole('status');
  await waitFor(() =>
    expect(notice.textContent).toBe(
      "Approved 1 scope request. A scope has no expiry of its own: each holds while its member's key does. " +
        'Refused 1: addons.read for member #2 the scope "addons.read" is approved.',
    ),
  );
  expect(await decisions(calls)).toEqual([
    [
      { member_id: 1, scope: 'addons.read', decision: 'approve' },
      { member_id: 2, scope: 'addons.read', decision: 'approve' },
    ],
  ]);
  expect(calls.some((c) => c.url.includes('/scopes/'))).toBe(false);
});

it('selects all on the page, then all 61 matching over the pages, and rejects them with one reason', async () => {
  const calls = service();
  render(<ScopeQueue />);
  fireEvent.click(await screen.findByLabelText('Select all 50 on this page'));
  expect(screen.getByRole('checkbox', { name: 'Select addons.read for member50' })).toHaveProperty('checked', true);
  fireEvent.click(screen.getByRole('button', { name: 'Select all 61 matching scope requests' }));
  expect(await screen.findByText('All 61 matching scope requests are selected.')).not.toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Reject 61 selected scope requests…' }));
  fireEvent.input(screen.getByLabelText('Reason for rejecting 61 selected scope requests'), {
    target: { value: 'no partner contract' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Reject 61 selected scope requests' }));
  await waitFor(() =>
    expect(screen.getByText(/^Rejected 60 scope requests. Refused 1: addons.read for member #2/)).not.toBeNull(),
  );
  const [items] = await decisions(calls);
  expect(items).toHaveLength(61);
  expect(items!.at(-1)).toEqual({
    member_id: 61,
    scope: 'member-groups.read',
    decision: 'reject',
    reason: 'no partner contract',
  });
});

it('moves with j and k and selects with x, even when x follows j at once', async () => {
  service();
  render(<ScopeQueue />);
  const first = await screen.findByRole('checkbox', { name: 'Select addons.read for member1' });
  // Both keys before any render or effect runs: the row j moved to is the one x selects.
  fireEvent.keyDown(document.body, { key: 'j' });
  fireEvent.keyDown(document.body, { key: 'x' });
  await waitFor(() => expect(first).toHaveProperty('checked', true));
  fireEvent.keyDown(document.body, { key: 'j' });
  fireEvent.keyDown(document.body, { key: 'k' });
  fireEvent.keyDown(document.body, { key: 'x' });
  await waitFor(() => expect(first).toHaveProperty('checked', false));
  expect(first.closest('tr')!.classList.contains('current')).toBe(true);
  expect(document.activeElement).toBe(first.closest('tr'));
  // Typing in a field is typing: no key acts.
  const search = screen.getByLabelText('Search by username or API id');
  fireEvent.keyDown(search, { key: 'x' });
  expect(first).toHaveProperty('checked', false);
});
