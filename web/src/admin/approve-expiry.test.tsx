import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { application, envelope } from './applications.fixture';
import { CredentialQueue } from './credential-queue';

const pending = application(7, 'alice', 'pending', { reviewed_at: null });

/** The service with one pending application and KEY_LIFETIME_DAYS as given; an approval answers the expiry it was sent. */
function service(keyLifetimeDays: number | null) {
  const approvals: unknown[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    if (request.url.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (request.url.endsWith('/credentials/7/approve')) {
      const body = (await request.json()) as { expires_at?: string | null; expires_in_days?: number };
      approvals.push(body);
      const expires_at = body.expires_in_days
        ? new Date(Date.now() + body.expires_in_days * 86_400_000).toISOString()
        : (body.expires_at ?? null);
      return envelope(200, {
        code: 0,
        message: 'application approved',
        data: { ...pending, status: 'approved', expires_at },
      });
    }
    const list = approvals.length ? [] : [pending];
    return envelope(200, { code: 0, message: 'ok', data: { list, next: null, key_lifetime_days: keyLifetimeDays } });
  }) as typeof fetch;
  return approvals;
}

// The queue keeps its filter in the address: each test starts from the screen's own.
beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials'));

const expiry = () => screen.findByLabelText('Key expires for alice') as Promise<HTMLSelectElement>;
const optionTexts = (select: HTMLSelectElement) => [...select.options].map((o) => o.textContent);

it('offers 30, 90 and 365 days, a date or never, starting on the service default, and approves with the one chosen', async () => {
  const approvals = service(90);
  render(<CredentialQueue />);
  const select = await expiry();
  expect(optionTexts(select)).toEqual(['in 30 days', 'in 90 days (default)', 'in 365 days', 'on a date…', 'never']);
  expect(select.value).toBe('90');
  fireEvent.change(select, { target: { value: '30' } });
  fireEvent.click(screen.getByRole('button', { name: 'Approve alice' }));
  await waitFor(() => expect(approvals).toEqual([{ expires_in_days: 30 }]));
  const notice = await screen.findByText(/Approved alice's application: the key expires on/);
  const in30 = new Date(Date.now() + 30 * 86_400_000);
  expect(notice.textContent).toContain(String(in30.getFullYear()));
});

it('approves a key that never expires with expires_at null, and says so', async () => {
  const approvals = service(90);
  render(<CredentialQueue />);
  fireEvent.change(await expiry(), { target: { value: 'never' } });
  fireEvent.click(screen.getByRole('button', { name: 'Approve alice' }));
  await waitFor(() => expect(approvals).toEqual([{ expires_at: null }]));
  expect(await screen.findByText(/the key never expires/)).not.toBeNull();
});

it('asks for a date, no earlier than tomorrow, and sends the end of that day', async () => {
  const approvals = service(null);
  render(<CredentialQueue />);
  const select = await expiry();
  expect(select.value).toBe('never');
  expect(optionTexts(select)).toContain('never (default)');
  fireEvent.change(select, { target: { value: 'date' } });
  const date = screen.getByLabelText('Expiry date for alice') as HTMLInputElement;
  expect(date.required).toBe(true);
  expect(Date.parse(date.min)).toBeGreaterThan(Date.now() - 86_400_000);
  fireEvent.input(date, { target: { value: '2031-05-17' } });
  fireEvent.click(screen.getByRole('button', { name: 'Approve alice' }));
  await waitFor(() => expect(approvals).toEqual([{ expires_at: new Date('2031-05-17T23:59:59').toISOString() }]));
});

it('offers a default that is not a preset as a choice of its own', async () => {
  service(45);
  render(<CredentialQueue />);
  const select = await expiry();
  expect(optionTexts(select)).toEqual([
    'in 45 days (default)',
    'in 30 days',
    'in 90 days',
    'in 365 days',
    'on a date…',
    'never',
  ]);
  expect(select.value).toBe('45');
});
