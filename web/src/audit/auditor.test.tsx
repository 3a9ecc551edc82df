import { fireEvent, render, screen } from '@testing-library/preact';
import { Auditor } from './auditor';

const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const history = { member_id: 7, username: 'alice', events: [], credential: null, scopes: [] };

let asked: string[];
beforeEach(() => {
  asked = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    asked.push(`${url.pathname}${url.search}`);
    if (url.pathname.endsWith('/audit/members')) return envelope(200, { code: 0, message: 'ok', data: { member_id: 7, username: 'alice' } });
    return envelope(200, { code: 0, message: 'ok', data: history });
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
