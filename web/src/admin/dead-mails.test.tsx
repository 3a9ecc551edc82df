import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { DeadMails } from './dead-mails';
import { envelope, serviceStandIn } from '../../test/envelope';

const refused = {
  id: 'member:00000000000000000042',
  kind: 'member',
  to: 'gone@example.com',
  subject: 'Your API credential application was approved',
  status: 'dead',
  attempts: 1,
  cause: "Can't send mail - all recipients were rejected: 550 no such mailbox here",
  queued_at: '2026-12-01T10:00:00.000Z',
  next_attempt_at: null,
  delivered_at: null,
};

/** The service as the screen meets it: the dead mails, until one is retried. */
function service() {
  let retried = false;
  return serviceStandIn((_url, request) => {
    if (request.method === 'POST') {
      retried = true;
      return envelope(200, {
        code: 0,
        message: 'queued',
        data: { ...refused, status: 'pending', next_attempt_at: '2026-12-01T10:05:00.000Z' },
      });
    }
    return envelope(200, { code: 0, message: 'ok', data: { list: retried ? [] : [refused] } });
  });
}

describe('dead mail', () => {
  it("lists each dead mail with its recipient, subject and the server's refusal", async () => {
    const calls = service();
    render(<DeadMails />);
    const row = (await screen.findByText('gone@example.com')).closest('tr')!;
    expect(within(row).getByText('Your API credential application was approved')).not.toBeNull();
    expect(within(row).getByText(/550 no such mailbox here/)).not.toBeNull();
    expect(new URL(calls[0]!.url).searchParams.get('status')).toBe('dead');
  });

  it('retries one: sent with the CSRF token, said so, and gone from the list', async () => {
    const calls = service();
    render(<DeadMails />);
    fireEvent.click(await screen.findByRole('button', { name: 'Retry the mail to gone@example.com' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Queued the mail to gone@example.com again: it is sent within a second.',
    );
    const retry = calls.find((c) => c.method === 'POST')!;
    expect(new URL(retry.url).pathname).toBe('/api/v1/mails/member%3A00000000000000000042/retry');
    expect(retry.headers.get('X-CSRF-Token')).toBe('token-1');
    await waitFor(() =>
      expect(screen.getByText('No dead mail: every mail was sent or is still being tried.')).not.toBeNull(),
    );
  });
});
