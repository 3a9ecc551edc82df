import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { application, envelope, serviceStandIn } from './applications.fixture';
import { CredentialQueue } from './credential-queue';

/** The service answering one list of applications, whatever the filter. */
function listing(list: object[]) {
  globalThis.fetch = jest.fn(async () =>
    envelope(200, { code: 0, message: 'ok', data: { list, next: null } }),
  ) as typeof fetch;
}

// The queue keeps its filter in the address: each test starts from the screen's own.
beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials'));

const PAST = '2026-01-10T08:00:00.000Z';
const FUTURE = '2099-01-10T08:00:00.000Z';

/** The service as the queue meets it: one page of approved applications, then the revoke's answer. */
function service({ failFirstList = false } = {}) {
  const calls: Request[] = [];
  let lists = 0;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    calls.push(request);
    if (request.url.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (request.url.includes('/revoke'))
      return envelope(200, { code: 0, message: 'revoked', data: application(7, 'alice', 'revoked') });
    lists += 1;
    if (failFirstList && lists === 1)
      return envelope(500, { code: 500, message: 'internal error', data: { error: 'internal' } });
    return envelope(200, { code: 0, message: 'ok', data: { list: [application(7, 'alice', 'approved')], next: null } });
  }) as typeof fetch;
  return calls;
}

/** An administrator revokes alice's credential from the queue, with a reason. */
async function revokeAlice() {
  render(<CredentialQueue />);
  fireEvent.click(await screen.findByRole('button', { name: "Revoke alice's credential…" }));
  fireEvent.input(screen.getByLabelText("Reason for revoking alice's credential"), {
    target: { value: 'approved by mistake' },
  });
  fireEvent.click(screen.getByRole('button', { name: "Revoke alice's credential" }));
}

it('offers to revoke an approval before the claim, with a reason', async () => {
  const calls = service();
  await revokeAlice();
  await waitFor(() => expect(calls.some((c) => c.url.endsWith('/credentials/7/revoke'))).toBe(true));
  const revoke = calls.find((c) => c.url.endsWith('/credentials/7/revoke'))!;
  expect(revoke.method).toBe('POST');
  expect(await revoke.clone().json()).toEqual({ reason: 'approved by mistake' });
});

it('opens the reason box with focus in it; Escape closes it and gives focus back to the button that opened it', async () => {
  service();
  render(<CredentialQueue />);
  const revoke = await screen.findByRole('button', { name: "Revoke alice's credential…" });
  fireEvent.click(revoke);
  const reason = screen.getByLabelText("Reason for revoking alice's credential");
  await waitFor(() => expect(document.activeElement).toBe(reason));
  fireEvent.keyDown(reason, { key: 'Escape' });
  const again = await screen.findByRole('button', { name: "Revoke alice's credential…" });
  await waitFor(() => expect(document.activeElement).toBe(again));
  expect(screen.queryByLabelText("Reason for revoking alice's credential")).toBeNull();

  fireEvent.click(again);
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  await waitFor(() =>
    expect(document.activeElement).toBe(screen.getByRole('button', { name: "Revoke alice's credential…" })),
  );
});

it('after a decision, puts focus on the message saying what was done, not on the page', async () => {
  service();
  await revokeAlice();
  const done = await screen.findByRole('status');
  expect(done.textContent).toBe("Revoked alice's credential: its key is refused from now on.");
  await waitFor(() => expect(document.activeElement).toBe(done));
});

it("clears the last decision's outcome when the status filter changes", async () => {
  service();
  await revokeAlice();
  expect((await screen.findByRole('status')).textContent).toBe(
    "Revoked alice's credential: its key is refused from now on.",
  );
  fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'active' } });
  await waitFor(() => expect(screen.queryByText(/^Revoked alice/, { selector: '.notice' })).toBeNull());
});

it('a list that failed to load offers to try again, below the status filter', async () => {
  service({ failFirstList: true });
  render(<CredentialQueue />);
  expect((await screen.findByRole('alert')).textContent).toContain('internal error');
  expect(screen.getByLabelText('Status')).not.toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('button', { name: "Revoke alice's credential…" })).not.toBeNull();
});

/**
 * Another administrator decided alice's pending application meanwhile: the decision at `path` is
 * refused for its state, and the queue read again lists `after`. Counts the reads of the queue.
 */
function decidedMeanwhile(path: string, after: object[]) {
  const reads = { lists: 0 };
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    if (request.url.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (request.url.endsWith(path))
      return envelope(422, {
        code: 422,
        message: 'cannot decide: the application of member 7 is approved, not pending',
        data: { error: 'credential_not_pending' },
      });
    reads.lists += 1;
    return envelope(200, {
      code: 0,
      message: 'ok',
      data: { list: reads.lists === 1 ? [application(7, 'alice', 'pending')] : after, next: null },
    });
  }) as typeof fetch;
  return reads;
}

it('refused because another administrator decided meanwhile: reads the queue again, so the row shows what is true now', async () => {
  const reads = decidedMeanwhile('/approve', [application(7, 'alice', 'approved')]);
  render(<CredentialQueue />);
  fireEvent.click(await screen.findByRole('button', { name: 'Approve alice' }));
  expect(await screen.findByText(/is approved, not pending/)).not.toBeNull();
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve alice' })).toBeNull());
  expect(reads.lists).toBe(2);
});

it('a rejection refused because another administrator decided meanwhile says so above the queue, with focus, though the row is gone', async () => {
  const reads = decidedMeanwhile('/reject', []);
  render(<CredentialQueue />);
  fireEvent.click(await screen.findByRole('button', { name: "Reject alice's application…" }));
  fireEvent.input(screen.getByLabelText("Reason for rejecting alice's application"), {
    target: { value: 'incomplete' },
  });
  fireEvent.click(screen.getByRole('button', { name: "Reject alice's application" }));
  const notice = await screen.findByText(/is approved, not pending/);
  await waitFor(() => expect(reads.lists).toBe(2));
  expect(screen.queryByLabelText("Reason for rejecting alice's application")).toBeNull();
  expect(notice.getAttribute('role')).toBe('alert');
  await waitFor(() => expect(document.activeElement).toBe(notice));
});

describe("status and expiry, in the words of the member's dashboard", () => {
  // Every status: under "pending" (the default) a row has no key columns.
  beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials?status=all'));
  afterEach(() => history.replaceState(null, '', '/ui/admin/credentials'));
  const rowOf = async (username: string) =>
    (await screen.findByRole('cell', { name: new RegExp(`^${username} `) })).closest('tr')!;
  const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!;

  it('says "active, expired" for an active key past its expiry, as the dashboard does, and keeps the date', async () => {
    listing([
      application(7, 'alice', 'active', { expires_at: PAST }),
      application(8, 'bob', 'active', { expires_at: FUTURE }),
      application(9, 'carol', 'approved', { expires_at: PAST }),
    ]);
    render(<CredentialQueue />);
    const alice = await rowOf('alice');
    expect(cell(alice, 'Status').querySelector('.status')!.textContent).toBe('active, expired');
    expect(cell(alice, 'Status').querySelector('.status')!.className).toBe('status expired');
    expect(cell(alice, 'Expires').querySelector('time')!.getAttribute('datetime')).toBe(PAST);
    expect(cell(await rowOf('bob'), 'Status').querySelector('.status')!.textContent).toBe('active');
    expect(cell(await rowOf('carol'), 'Status').querySelector('.status')!.textContent).toBe('approved, expired');
  });

  it('tells no expiry for an application that has no key: pending, rejected or revoked', async () => {
    listing([
      application(7, 'alice', 'pending'),
      application(8, 'bob', 'rejected', { reject_reason: 'unknown company' }),
      application(9, 'carol', 'revoked', { expires_at: FUTURE, revoke_reason: 'leaked' }),
      application(10, 'dave', 'active'),
    ]);
    render(<CredentialQueue />);
    for (const username of ['alice', 'bob', 'carol'])
      expect(cell(await rowOf(username), 'Expires').textContent).toBe('—');
    // A key approved without an expiry does live forever.
    expect(cell(await rowOf('dave'), 'Expires').textContent).toBe('never');
  });
});

describe('extension requests', () => {
  const extension = (status = 'pending') => ({
    status,
    expires_at: '2099-04-01T12:00:00.000Z',
    reason: 'pilot runs until spring',
    requested_at: '2026-01-11T09:00:00.000Z',
    reviewed_at: null,
    reject_reason: null,
  });
  // alice's key expired and she asks for a later expiry; bob's is fine; carol's was revoked while hers waited.
  const lists = [
    application(7, 'alice', 'active', { expires_at: PAST, extension: extension() }),
    application(8, 'bob', 'active', { expires_at: FUTURE }),
    application(9, 'carol', 'revoked', { expires_at: FUTURE, extension: extension() }),
  ];

  /** The service: the list (filtered by status as the service does), and the extension decisions' answers. */
  function service(list = lists) {
    return serviceStandIn((url) => {
      if (url.pathname.endsWith('/extension/approve'))
        return envelope(200, {
          code: 0,
          message: 'extended',
          data: application(7, 'alice', 'active', {
            expires_at: extension().expires_at,
            extension: extension('approved'),
          }),
        });
      if (url.pathname.endsWith('/extension/reject'))
        return envelope(200, {
          code: 0,
          message: 'extension rejected',
          data: application(7, 'alice', 'active', { expires_at: PAST, extension: extension('rejected') }),
        });
      const status = url.searchParams.get('status');
      return envelope(200, {
        code: 0,
        message: 'ok',
        data: { list: list.filter((a) => !status || a.status === status), next: null },
      });
    });
  }
  const row = (username: string) => screen.getByRole('cell', { name: new RegExp(`^${username} `) }).closest('tr')!;

  it('shows what the member asks in the row: the marker, the new expiry and the reason', async () => {
    service();
    render(<CredentialQueue />);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'active' } });
    await screen.findByRole('button', { name: 'Approve extension for alice' });
    const alice = row('alice');
    expect(alice.querySelector('td[data-label="Status"]')!.textContent).toContain('extension requested');
    const expires = alice.querySelector('td[data-label="Expires"]')!;
    expect(expires.querySelector('.extension-request time')!.getAttribute('datetime')).toBe('2099-04-01T12:00:00.000Z');
    expect(expires.textContent).toContain('“pilot runs until spring”');
    expect(row('bob').textContent).not.toContain('extension');
  });

  it('approves the extension from the row, and says what was done', async () => {
    const calls = service();
    render(<CredentialQueue />);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'extension' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Approve extension for alice' }));
    // In the console's words, the new expiry in the reader's own time, never an ISO instant.
    const done = (await screen.findByRole('status')).textContent!;
    expect(done).toMatch(/^Extended alice's key: it now expires on .*2099/);
    expect(done).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const approve = calls.find((c) => c.url.endsWith('/credentials/7/extension/approve'))!;
    expect(approve.method).toBe('POST');
    expect(await approve.clone().json()).toEqual({});
  });

  it('rejects the extension with a reason, in the reason box the other rejections use', async () => {
    const calls = service();
    render(<CredentialQueue />);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'extension' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Reject extension for alice…' }));
    const reason = screen.getByLabelText('Reason for rejecting extension for alice');
    await waitFor(() => expect(document.activeElement).toBe(reason));
    fireEvent.input(reason, { target: { value: 'apply again with the new contract' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject extension for alice' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      "Rejected alice's extension request: the key keeps its expiry.",
    );
    const reject = calls.find((c) => c.url.endsWith('/credentials/7/extension/reject'))!;
    expect(await reject.clone().json()).toEqual({ reason: 'apply again with the new contract' });
  });

  it('"extension requested" lists only the requests a reviewer may decide, and says when none waits', async () => {
    const calls = service();
    render(<CredentialQueue />);
    const filter = screen.getByLabelText('Status');
    // Beside "pending", where a reviewer looks for what waits.
    expect([...filter.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'all',
      'pending',
      'extension requested',
      'approved',
      'rejected',
      'active',
      'revoked',
    ]);
    fireEvent.change(filter, { target: { value: 'extension' } });
    await screen.findByRole('button', { name: 'Approve extension for alice' });
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(calls.some((c) => new URL(c.url).searchParams.get('status') === 'active')).toBe(true);
  });

  it('says so when no extension request waits: a decided one is no longer offered', async () => {
    service([application(7, 'alice', 'active', { expires_at: FUTURE, extension: extension('approved') })]);
    render(<CredentialQueue />);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'extension' } });
    expect(await screen.findByText('No extension request waits.')).not.toBeNull();
  });

  it('offers no extension decision on a revoked credential', async () => {
    service();
    render(<CredentialQueue />);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '' } });
    await screen.findByRole('button', { name: 'Approve extension for alice' });
    expect(row('carol').textContent).not.toContain('extension');
    expect(screen.queryByRole('button', { name: /extension for carol/ })).toBeNull();
  });
});
