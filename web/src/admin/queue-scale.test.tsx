import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { application, envelope, serviceStandIn } from './applications.fixture';
import { CredentialQueue } from './credential-queue';

const pending = (member_id: number, username: string) =>
  application(member_id, username, 'pending', { reviewed_at: null });

const counts = { pending: 61, approved: 2, rejected: 0, active: 5, revoked: 1 };

/** The service with 61 pending applications, answering pages of 50 by cursor; records every request. */
function service() {
  return serviceStandIn(async (url, request) => {
    if (url.pathname.endsWith('/credentials/decisions')) {
      const { items } = (await request.clone().json()) as { items: { member_id: number }[] };
      const results = items.map(({ member_id }) =>
        member_id === 2
          ? {
              member_id,
              ok: false,
              error: 'credential_not_pending',
              message: 'the application of member 2 is rejected, not pending',
            }
          : { member_id, ok: true },
      );
      return envelope(200, { code: 0, message: 'decided', data: { results } });
    }
    if (url.pathname.endsWith('/reject')) {
      const id = Number(url.pathname.split('/').at(-2));
      if (id === 2)
        return envelope(422, {
          code: 422,
          message: 'the application of member 2 is rejected, not pending',
          data: { error: 'credential_not_pending' },
        });
      return envelope(200, { code: 0, message: 'rejected', data: { ...pending(id, `m${id}`), status: 'rejected' } });
    }
    const q = url.searchParams.get('q');
    const all = Array.from({ length: 61 }, (_, i) => pending(i + 1, `member${i + 1}`)).filter(
      (a) => !q || a.username.includes(q),
    );
    const start = url.searchParams.get('after') === 'c50' ? 50 : 0;
    const list = all.slice(start, start + 50);
    return envelope(200, {
      code: 0,
      message: 'ok',
      data: {
        list,
        next: start + 50 < all.length ? 'c50' : null,
        key_lifetime_days: null,
        counts: { ...counts, pending: all.length },
      },
    });
  });
}

const lists = (calls: Request[]) =>
  calls.filter((c) => new URL(c.url).pathname.endsWith('/credentials')).map((c) => new URL(c.url).searchParams);

beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials'));

it('shows the count of each status, and pages on the service, keeping the page in the address', async () => {
  const calls = service();
  render(<CredentialQueue />);
  expect(await screen.findByText('1–50 of 61')).not.toBeNull();
  const options = [...(screen.getByLabelText('Status') as HTMLSelectElement).options].map((o) => o.textContent);
  expect(options).toEqual([
    'all (69)',
    'pending (61)',
    'extension requested',
    'approved (2)',
    'rejected (0)',
    'active (5)',
    'revoked (1)',
  ]);
  expect(lists(calls)[0]!.get('limit')).toBe('50');

  fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
  expect(await screen.findByText('51–61 of 61')).not.toBeNull();
  expect(location.search).toBe('?after=c50');
  expect(lists(calls).at(-1)!.get('after')).toBe('c50');
  fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
  expect(await screen.findByText('1–50 of 61')).not.toBeNull();
  expect(location.search).toBe('');
});

it('reads its filter and search from the address, so reload, back and a shared link keep them', async () => {
  history.replaceState(null, '', '/ui/admin/credentials?status=all&q=member6');
  const calls = service();
  render(<CredentialQueue />);
  expect(await screen.findByRole('cell', { name: /^member61 / })).not.toBeNull();
  expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('');
  expect((screen.getByLabelText('Search by username or API id') as HTMLInputElement).value).toBe('member6');
  expect(lists(calls)[0]!.get('q')).toBe('member6');
  expect(lists(calls)[0]!.has('status')).toBe(false);

  fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'pending' } });
  await waitFor(() => expect(location.search).toBe('?status=pending&q=member6'));
  history.back();
  await waitFor(() => expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe(''));
});

it('rejects the selected rows with one reason in one request, and says which were refused', async () => {
  const calls = service();
  render(<CredentialQueue />);
  fireEvent.click(await screen.findByRole('checkbox', { name: 'Select member1' }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Select member2' }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Select member3' }));
  fireEvent.click(screen.getByRole('button', { name: 'Reject 3 selected applications…' }));
  fireEvent.input(screen.getByLabelText('Reason for rejecting 3 selected applications'), {
    target: { value: 'incomplete' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Reject 3 selected applications' }));
  const notice = await screen.findByRole('status');
  await waitFor(() =>
    expect(notice.textContent).toContain(
      'Rejected 2 applications. Refused 1: #2 the application of member 2 is rejected, not pending.',
    ),
  );
  const decisions = calls.filter((c) => c.url.endsWith('/credentials/decisions'));
  expect(decisions).toHaveLength(1);
  expect(await decisions[0]!.clone().json()).toEqual({
    items: [1, 2, 3].map((member_id) => ({ member_id, decision: 'reject', reason: 'incomplete' })),
  });
});
