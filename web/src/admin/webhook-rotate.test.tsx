import { fireEvent, render, screen, within } from '@testing-library/preact';
import { envelope, serviceStandIn } from '../../test/envelope';
import { DeveloperWebhooks } from '../developer/webhooks';
import { Webhooks } from './webhooks';

const hook = {
  id: '0b5c2d1e-1111-4222-8333-444455556666',
  url: 'https://example.com/hook',
  events: ['credential.approved'],
  created_at: '2026-11-20T10:00:00.000Z',
};

// The administrators' webhooks and a member's own: one action, one wording.
describe.each([
  ['an administrator', Webhooks, 'rotated-webhook-secret'],
  ['a member', DeveloperWebhooks, 'developer-webhook-secret'],
])('rotating the secret of a webhook, as %s', (_who, Screen, secretId) => {
  it('is "Rotate secret", asked first, and shows the new secret once', async () => {
    const calls = serviceStandIn((url, request) => {
      if (request.method === 'POST' && url.pathname.endsWith('/rotate-secret'))
        return envelope(200, { code: 0, message: 'rotated', data: { ...hook, secret: 'whsec_rotated' } });
      return envelope(200, { code: 0, message: 'ok', data: { list: [hook] } });
    });
    render(<Screen />);
    const button = await screen.findByRole('button', { name: `Rotate the secret of ${hook.url}…` });
    expect(button.textContent).toBe('Rotate secret…');
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: "Rotate the webhook's secret?" });
    expect(calls.some((r) => r.url.endsWith('/rotate-secret'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    expect((await screen.findByTestId(secretId)).textContent).toBe('whsec_rotated');
    expect(screen.queryByRole('button', { name: /^New secret/ })).toBeNull();
  });
});
