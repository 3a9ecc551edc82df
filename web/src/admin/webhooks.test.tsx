import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { navigate } from '../router';
import { Webhooks } from './webhooks';
import { envelope } from '../../test/envelope';

const hook = {
  id: '0b5c2d1e-1111-4222-8333-444455556666',
  url: 'https://example.com/hook',
  events: ['credential.approved'],
  created_at: '2026-11-20T10:00:00.000Z',
};

const exchange = {
  sent_at: '2026-11-20T10:05:00.000Z',
  request: {
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'd-1',
      'webhook-timestamp': '1790000000',
      'webhook-signature': 'v1,c2lnbmVk',
    },
    body: '{"type":"ping","timestamp":"2026-11-20T10:05:00.000Z","data":{}}',
  },
  response: { status: 503, body: 'receiver down for maintenance' },
  error: null,
  duration_ms: 42,
};
const ping = {
  id: 'd-1',
  event_type: 'ping',
  status: 'dead',
  attempts: 1,
  last_status_code: 503,
  next_attempt_at: null,
  delivered_at: null,
  last_exchange: exchange,
};

/** The service as the webhooks screen meets it: one webhook, its deliveries, and the answers to writes. */
function service({
  register = () => envelope(200, { code: 0, message: 'registered', data: { ...hook, secret: 'whsec_x' } }),
  change = (body: { url: string; events: string[] }) =>
    envelope(200, { code: 0, message: 'changed', data: { ...hook, ...body } }),
} = {}) {
  const calls: Request[] = [];
  let removed = false;
  let pinged = false;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    calls.push(request);
    const path = new URL(request.url).pathname;
    if (path.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (request.method === 'DELETE') {
      removed = true;
      return envelope(200, { code: 0, message: 'removed', data: hook });
    }
    if (request.method === 'PUT') return change((await request.clone().json()) as { url: string; events: string[] });
    if (request.method === 'POST' && path.endsWith('/test')) {
      pinged = true;
      return envelope(200, { code: 0, message: 'not delivered: the receiver answered 503', data: ping });
    }
    if (request.method === 'POST') return register();
    if (path.endsWith('/deliveries'))
      return envelope(200, { code: 0, message: 'ok', data: { list: pinged ? [ping] : [] } });
    return envelope(200, { code: 0, message: 'ok', data: { list: removed ? [] : [hook] } });
  }) as typeof fetch;
  return calls;
}

/** Registers a webhook at `url` (its secret shown), then removes the one at https://example.com/hook. */
async function registerThenRemoveHook(url: string) {
  render(<Webhooks />);
  fireEvent.input(screen.getByLabelText('URL'), { target: { value: url } });
  fireEvent.click(screen.getByRole('button', { name: 'Register' }));
  await screen.findByTestId('webhook-secret');
  fireEvent.click(await screen.findByRole('button', { name: 'Remove https://example.com/hook…' }));
  fireEvent.click(
    within(screen.getByRole('dialog', { name: 'Remove the webhook?' })).getByRole('button', { name: 'Remove' }),
  );
}

describe('webhooks', () => {
  it('asks before removing a webhook, and removes nothing when the administrator says no', async () => {
    const calls = service();
    const confirm = jest.spyOn(window, 'confirm');
    render(<Webhooks />);
    const opener = await screen.findByRole('button', { name: 'Remove https://example.com/hook…' });
    // As a click in a browser does.
    opener.focus();
    fireEvent.click(opener);
    // Asked in the page, with focus on the answer that removes; never the browser's own dialog.
    const dialog = screen.getByRole('dialog', { name: 'Remove the webhook?' });
    expect(dialog.textContent).toContain('Remove the webhook https://example.com/hook?');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Remove' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove https://example.com/hook…' })),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('once confirmed, removes it and puts focus on the message saying so', async () => {
    service();
    render(<Webhooks />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove https://example.com/hook…' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    const done = await screen.findByText('Removed the webhook https://example.com/hook.');
    expect(done.getAttribute('role')).toBe('status');
    await waitFor(() => expect(document.activeElement).toBe(done));
  });

  it('names the deliveries toggle with its webhook and says whether it is expanded', async () => {
    service();
    render(<Webhooks />);
    const toggle = await screen.findByRole('button', { name: 'Deliveries of https://example.com/hook' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByText('No delivery yet.')).not.toBeNull();
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)!.textContent).toBe('No delivery yet.');
  });

  it('after registering, shows the secret with the URL it signs for and starts the form over, so a second click registers nothing twice', async () => {
    const calls = service();
    render(<Webhooks />);
    const url = screen.getByLabelText('URL') as HTMLInputElement;
    fireEvent.input(url, { target: { value: 'https://example.com/hook' } });
    fireEvent.click(screen.getByLabelText('scope.revoked'));
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    const secret = await screen.findByTestId('webhook-secret');
    expect(secret.textContent).toBe('whsec_x');
    const shown = screen.getByRole('region', { name: 'Signing secret' });
    expect(within(shown).getByText('https://example.com/hook')).not.toBeNull();
    expect(shown.textContent).toContain('This is the only time the secret is shown');
    expect(url.value).toBe('');
    expect((screen.getByLabelText('scope.revoked') as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText('credential.approved') as HTMLInputElement).checked).toBe(true);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('removing the webhook whose secret is shown takes the secret away with it', async () => {
    service();
    await registerThenRemoveHook('https://example.com/hook');
    expect(await screen.findByText('No webhook yet.')).not.toBeNull();
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
    expect(screen.queryByText(/Signing secret/)).toBeNull();
  });

  it('keeps the secret of a webhook just registered when another one is removed', async () => {
    const other = { ...hook, id: '0b5c2d1e-1111-4222-8333-777788889999', url: 'https://example.com/new' };
    service({
      register: () => envelope(200, { code: 0, message: 'registered', data: { ...other, secret: 'whsec_new' } }),
    });
    await registerThenRemoveHook('https://example.com/new');
    await screen.findByText('Removed the webhook https://example.com/hook.');
    expect(screen.getByTestId('webhook-secret').textContent).toBe('whsec_new');
  });

  it("ties a refused URL to the URL field: marked invalid and described by the service's reason", async () => {
    const reason = 'URL must use https.';
    service({
      register: () =>
        envelope(422, {
          code: 422,
          message: reason,
          data: { error: 'invalid_webhook_url', issues: [{ path: 'url', message: reason }] },
        }),
    });
    render(<Webhooks />);
    const url = screen.getByLabelText('URL');
    fireEvent.input(url, { target: { value: 'http://example.com/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    const described = url
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain(reason);
    expect(screen.getByRole('alert').textContent).toBe('Correct what is marked above, then register again.');
  });

  it('keeps the secret until it is stored: copy, a gate on "Done", and leaving asks in the page', async () => {
    const writeText = jest.fn(async () => {});
    Object.assign(navigator, { clipboard: { writeText } });
    service();
    history.replaceState(null, '', '/ui/admin/webhooks');
    render(<Webhooks />);
    fireEvent.input(screen.getByLabelText('URL'), { target: { value: 'https://example.com/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByTestId('webhook-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Copy the secret' }));
    await screen.findByText('Copied to the clipboard.');
    expect(writeText).toHaveBeenCalledWith('whsec_x');

    navigate('/admin');
    const asked = await screen.findByRole('dialog', { name: 'Leave without storing it?' });
    fireEvent.click(within(asked).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location.pathname).toBe('/ui/admin/webhooks');

    const done = screen.getByRole('button', { name: 'Done: hide the secret' }) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have stored the secret somewhere safe'));
    fireEvent.click(done);
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
    navigate('/admin');
    expect(location.pathname).toBe('/ui/admin');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends a test, says what the receiver answered, and shows the ping among the deliveries with its request and answer', async () => {
    const calls = service();
    render(<Webhooks />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test to https://example.com/hook' }));
    const told = await screen.findByText(/^Test not delivered/);
    expect(told.textContent).toBe('Test not delivered: the receiver answered 503.');
    // Not the green of a success.
    expect(told.className).toBe('notice done warning');
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith(`/webhooks/${hook.id}/test`))).toBe(true);
    const row = await screen.findByRole('row', { name: /ping/ });
    expect(within(row).getByText('dead').className).toBe('status dead');
    const details = within(row).getByRole('button', { name: 'Request and answer of ping d-1' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(details);
    expect(details.getAttribute('aria-expanded')).toBe('true');
    const shown = document.getElementById(details.getAttribute('aria-controls')!)!;
    expect(shown.textContent).toContain('webhook-signature: v1,c2lnbmVk');
    expect(shown.textContent).toContain('"type": "ping"');
    expect(shown.textContent).toContain('Answer after 42 ms');
    expect(shown.textContent).toContain('receiver down for maintenance');
    expect(shown.textContent).not.toContain('whsec_');
  });

  it('edits the URL and the events in place, and keeps what was typed with the reason when refused', async () => {
    const reason = 'url points at a loopback, private or otherwise reserved address';
    let refuse = true;
    const calls = service({
      change: (body) =>
        refuse
          ? envelope(422, {
              code: 422,
              message: reason,
              data: { error: 'invalid_webhook_url', issues: [{ path: 'url', message: reason }] },
            })
          : envelope(200, { code: 0, message: 'changed', data: { ...hook, ...body } }),
    });
    render(<Webhooks />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit https://example.com/hook' }));
    const form = screen.getByRole('form', { name: 'Edit https://example.com/hook' });
    const url = within(form).getByLabelText('URL') as HTMLInputElement;
    expect(url.value).toBe('https://example.com/hook');
    expect((within(form).getByLabelText('credential.approved') as HTMLInputElement).checked).toBe(true);
    fireEvent.input(url, { target: { value: 'http://10.0.0.1/hook' } });
    fireEvent.click(within(form).getByLabelText('scope.requested'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(url.value).toBe('http://10.0.0.1/hook');
    expect(screen.getByRole('alert').textContent).toBe('Correct what is marked above, then save again.');

    refuse = false;
    fireEvent.input(url, { target: { value: 'https://example.com/moved' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect((await screen.findByText(/^Saved:/)).textContent).toBe(
      'Saved: https://example.com/moved now hears of credential.approved, scope.requested.',
    );
    const sent = calls.filter((c) => c.method === 'PUT');
    expect(await sent.at(-1)!.clone().json()).toEqual({
      url: 'https://example.com/moved',
      events: ['credential.approved', 'scope.requested'],
    });
    expect(screen.queryByRole('form', { name: 'Edit https://example.com/hook' })).toBeNull();
  });
});
