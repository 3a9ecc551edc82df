import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { application, envelope } from './applications.fixture';
import { CredentialQueue } from './credential-queue';

// The queue keeps its filter in the address: each test starts from the screen's own.
beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials'));

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
