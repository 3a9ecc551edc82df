import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Webhooks } from './webhooks';
import { envelope } from '../../test/envelope';

const hook = { id: '0b5c2d1e-1111-4222-8333-444455556666', url: 'https://example.com/hook', events: ['credential.approved'], created_at: '2026-11-20T10:00:00.000Z' };

/** The service as the webhooks screen meets it: one webhook, its deliveries, and the answers to writes. */
function service({ register = () => envelope(200, { code: 0, message: 'registered', data: { ...hook, secret: 'whsec_x' } }) } = {}) {
  const calls: Request[] = [];
  let removed = false;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    calls.push(request);
    const path = new URL(request.url).pathname;
    if (path.endsWith('/developer/session')) return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (request.method === 'DELETE') {
      removed = true;
      return envelope(200, { code: 0, message: 'removed', data: hook });
    }
    if (request.method === 'POST') return register();
    if (path.endsWith('/deliveries')) return envelope(200, { code: 0, message: 'ok', data: { list: [] } });
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
  fireEvent.click(screen.getByRole('button', { name: 'Remove https://example.com/hook' }));
}

describe('webhooks', () => {
  it('asks before removing a webhook, and removes nothing when the administrator says no', async () => {
    const calls = service();
    const confirm = jest.spyOn(window, 'confirm');
    render(<Webhooks />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove https://example.com/hook…' }));
    // Asked in place, with focus on the answer that removes; never the browser's own dialog.
    expect(screen.getByRole('group', { name: /^Remove the webhook https:\/\/example.com\/hook\?/ })).not.toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove https://example.com/hook' })));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove https://example.com/hook…' })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('once confirmed, removes it and puts focus on the message saying so', async () => {
    service();
    render(<Webhooks />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove https://example.com/hook…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove https://example.com/hook' }));
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
    expect(secret.closest('[role="status"]')!.textContent).toBe('Signing secret of https://example.com/hook, shown this once: whsec_x');
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

  it("keeps the secret of a webhook just registered when another one is removed", async () => {
    const other = { ...hook, id: '0b5c2d1e-1111-4222-8333-777788889999', url: 'https://example.com/new' };
    service({ register: () => envelope(200, { code: 0, message: 'registered', data: { ...other, secret: 'whsec_new' } }) });
    await registerThenRemoveHook('https://example.com/new');
    await screen.findByText('Removed the webhook https://example.com/hook.');
    expect(screen.getByTestId('webhook-secret').textContent).toBe('whsec_new');
  });

  it("ties a refused URL to the URL field: marked invalid and described by the service's reason", async () => {
    const reason = 'url must use https';
    service({ register: () => envelope(422, { code: 422, message: reason, data: { error: 'invalid_webhook_url', issues: [{ path: 'url', message: reason }] } }) });
    render(<Webhooks />);
    const url = screen.getByLabelText('URL');
    fireEvent.input(url, { target: { value: 'http://example.com/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    const described = url.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain(reason);
    expect(screen.getByRole('alert').textContent).toBe('Correct what is marked above, then register again.');
  });
});
