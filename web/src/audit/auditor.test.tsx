import { fireEvent, render, screen } from '@testing-library/preact';
import { Auditor, endOfTyped } from './auditor';

const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const history = { member_id: 7, username: 'alice', events: [] };

let answered: unknown = history;

let asked: string[];
beforeEach(() => {
  asked = [];
  answered = history;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    asked.push(`${url.pathname}${url.search}`);
    if (url.pathname.endsWith('/audit/members')) return envelope(200, { code: 0, message: 'ok', data: { member_id: 7, username: 'alice' } });
    return envelope(200, { code: 0, message: 'ok', data: answered });
  }) as typeof fetch;
});

describe('auditor lookup', () => {
  it.each([
    ['Alice', '/api/v1/audit/members?username=Alice'],
    ['ak_aaaaaaaaaaaaaaaaaaaa', '/api/v1/audit/members?apiid=ak_aaaaaaaaaaaaaaaaaaaa'],
  ])('finds %s through the lookup an auditor may use, not the review queue', async (typed, lookup) => {
    render(<Auditor />);
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: typed } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
    await screen.findByText('alice');
    expect(asked).toEqual([lookup, '/api/v1/credentials/7/history']);
  });

  it('reads a member id as it is typed, without a lookup', async () => {
    render(<Auditor />);
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: '#7' } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
    await screen.findByText('alice');
    expect(asked).toEqual(['/api/v1/credentials/7/history']);
  });
});

describe('as of', () => {
  it('means the end of the second typed, or of the minute, in local time', () => {
    expect(endOfTyped('2026-11-25T11:43:58')).toBe(new Date(2026, 10, 25, 11, 43, 58, 999).toISOString());
    expect(endOfTyped('2026-11-25T11:43')).toBe(new Date(2026, 10, 25, 11, 43, 59, 999).toISOString());
  });

  it('says a credential whose key had expired then is expired, with its API id and expiry', async () => {
    const credential = { status: 'active', apiid: 'ak_aaaaaaaaaaaaaaaaaaaa', expires_at: '2026-11-25T11:46:33.000Z', revoke_reason: null, reject_reason: null };
    answered = { ...history, as_of: '2026-11-25T11:46:39.999Z', state: { credential, scopes: [], expired: true } };
    render(<Auditor />);
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: '7' } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
    const state = await screen.findByTestId('state-as-of');
    expect(state.textContent).toContain('credential active, expired');
    expect(state.textContent).toContain('API id ak_aaaaaaaaaaaaaaaaaaaa');
    expect(state.querySelector('.status')!.className).toBe('status expired');
  });
});

describe('export', () => {
  it('downloads from the beginning, or after the position pasted from the file before', () => {
    render(<Auditor />);
    const link = screen.getByRole('link', { name: 'Download the NDJSON export' });
    expect(link.getAttribute('href')).toBe('/api/v1/audit/events?limit=10000');
    fireEvent.input(screen.getByLabelText('Resume after position (optional)'), { target: { value: ' 00000000000000010000 ' } });
    expect(link.getAttribute('href')).toBe('/api/v1/audit/events?from=00000000000000010000&limit=10000');
  });
});
