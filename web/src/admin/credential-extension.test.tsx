import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { application, envelope, FUTURE, PAST, serviceStandIn } from './applications.fixture';
import { CredentialQueue } from './credential-queue';

// The queue keeps its filter in the address: each test starts from the screen's own.
beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials'));

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
