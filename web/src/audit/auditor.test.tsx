import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { when } from '../ui/load';
import { Auditor, endOfTyped } from './auditor';
import { envelope } from '../../test/envelope';

const history = { member_id: 7, username: 'alice', events: [] };

/** Alice's first event: she applied for API credentials. */
const applied = {
  position: '1',
  stream: 'credential-7',
  revision: 0,
  type: 'CredentialApplied',
  time: '2026-11-20T10:00:00.000Z',
  actor: { kind: 'member', id: 7, username: 'alice' },
  summary: 'applied for API credentials',
  data: {},
};

let answered: unknown = history;
let found: Response | null = null;

let asked: string[];
beforeEach(() => {
  asked = [];
  answered = history;
  found = null;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    asked.push(`${url.pathname}${url.search}`);
    if (url.pathname.endsWith('/audit/members') && found) return found;
    if (url.pathname.endsWith('/audit/members'))
      return envelope(200, { code: 0, message: 'ok', data: { member_id: 7, username: 'alice' } });
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

describe('what the lookup found, or did not', () => {
  const lookUp = (typed: string) => {
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: typed } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
  };

  it('ties a refusal to the field: marked invalid, described by the message, and focused', async () => {
    found = envelope(404, {
      code: 404,
      message: 'No member has the username "nobody": check it, or give the member id.',
      data: { error: 'member_not_found' },
    });
    render(<Auditor />);
    lookUp('nobody');
    const field = screen.getByLabelText('Member id, username or API id');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const described = field
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('No member has the username "nobody": check it, or give the member id.');
    expect(document.activeElement).toBe(field);
  });

  it('announces what "Show the history" found', async () => {
    answered = { ...history, events: [applied] };
    render(<Auditor />);
    const status = screen.getByTestId('history-found');
    expect(status.getAttribute('role')).toBe('status');
    lookUp('7');
    await waitFor(() => expect(status.textContent).toBe('History of alice (member #7): 1 event.'));
  });

  it('"State after this" puts focus on the state it shows above the timeline', async () => {
    const credential = { status: 'pending', apiid: null, expires_at: null, revoke_reason: null, reject_reason: null };
    answered = { ...history, events: [applied] };
    render(<Auditor />);
    lookUp('7');
    const stateAfter = await screen.findByRole('button', { name: /^State after this: applied for API credentials/ });
    answered = {
      ...history,
      events: [applied],
      as_of: applied.time,
      state: { credential, scopes: [], expired: false },
    };
    fireEvent.click(stateAfter);
    const state = await screen.findByTestId('state-as-of');
    await waitFor(() => expect(document.activeElement).toBe(state));
    expect(state.textContent).toContain('credential pending');
  });
});

describe('"State after this"', () => {
  const event = (position: string, type: string, summary: string, time: string) => ({
    position,
    stream: 'credential-7',
    revision: Number(position) - 1,
    type,
    time,
    actor: { kind: 'member', id: 7, username: 'alice' },
    summary,
    data: {},
  });
  const events = [
    event('1', 'CredentialApplied', 'applied for API credentials', '2026-11-20T10:00:00.000Z'),
    event('2', 'CredentialApproved', 'approved the application; the key never expires', '2026-11-20T10:05:00.000Z'),
    event(
      '3',
      'CredentialClaimed',
      'claimed the credential, API id ak_aaaaaaaaaaaaaaaaaaaa',
      '2026-11-20T10:06:00.000Z',
    ),
  ];
  const credential = { status: 'pending', apiid: null, expires_at: null, revoke_reason: null, reject_reason: null };
  const lookUp = async () => {
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: '7' } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
    await screen.findByRole('button', { name: /^State after this: applied for API credentials/ });
  };

  it('changes the state card only: the whole timeline and what the lookup found stay', async () => {
    answered = { ...history, events };
    render(<Auditor />);
    await lookUp();
    const found = screen.getByTestId('history-found').textContent;
    expect(found).toBe('History of alice (member #7): 3 events.');
    // The service answers the state at the event's instant with the events until then, as any as_of.
    answered = {
      ...history,
      events: events.slice(0, 1),
      as_of: events[0]!.time,
      state: { credential, scopes: [], expired: false },
    };
    fireEvent.click(screen.getByRole('button', { name: /^State after this: applied for API credentials/ }));
    const state = await screen.findByTestId('state-as-of');
    expect(state.textContent).toContain('Right after “applied for API credentials”');
    expect(state.textContent).toContain('credential pending');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByTestId('history-found').textContent).toBe(found);
    expect(asked.at(-1)).toBe(`/api/v1/credentials/7/history?as_of=${encodeURIComponent(events[0]!.time)}`);

    // The next event's state replaces the card, still over the whole timeline.
    answered = {
      ...history,
      events: events.slice(0, 2),
      as_of: events[1]!.time,
      state: { credential: { ...credential, status: 'approved' }, scopes: [], expired: false },
    };
    fireEvent.click(screen.getByRole('button', { name: /^State after this: approved the application/ }));
    await waitFor(() => expect(screen.getByTestId('state-as-of').textContent).toContain('credential approved'));
    expect(screen.getAllByTestId('state-as-of')).toHaveLength(1);
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });

  it('refused, says why and keeps the timeline', async () => {
    answered = { ...history, events };
    render(<Auditor />);
    await lookUp();
    globalThis.fetch = jest.fn(async () =>
      envelope(409, {
        code: 409,
        message: 'the event at position 2 cannot be read by this version',
        data: { error: 'history_unreadable' },
      }),
    ) as typeof fetch;
    fireEvent.click(screen.getByRole('button', { name: /^State after this: claimed the credential/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'the event at position 2 cannot be read by this version',
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });
});

describe('as of', () => {
  it('means the end of the second typed, in local time, second 0 included (the field leaves ":00" out)', () => {
    expect(endOfTyped('2026-11-25T11:43:58')).toBe(new Date(2026, 10, 25, 11, 43, 58, 999).toISOString());
    expect(endOfTyped('2026-11-25T11:43')).toBe(new Date(2026, 10, 25, 11, 43, 0, 999).toISOString());
  });

  it('says a credential whose key had expired then is expired, with its API id and expiry', async () => {
    const credential = {
      status: 'active',
      apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      expires_at: '2026-11-25T11:46:33.000Z',
      revoke_reason: null,
      reject_reason: null,
    };
    answered = { ...history, as_of: '2026-11-25T11:46:39.999Z', state: { credential, scopes: [], expired: true } };
    render(<Auditor />);
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: '7' } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
    const state = await screen.findByTestId('state-as-of');
    expect(state.textContent).toContain('credential active, expired');
    expect(state.textContent).toContain('API id ak_aaaaaaaaaaaaaaaaaaaa');
    expect(state.querySelector('.status')!.className).toBe('status expired');
  });

  it("says the member's extension request and where it stands: the event that asked for it changes nothing else", async () => {
    const extension = {
      status: 'pending',
      expires_at: '2027-02-25T09:00:00.000Z',
      reason: 'renewed',
      requested_at: '2026-11-25T11:46:00.000Z',
      reviewed_at: null,
      reject_reason: null,
    };
    const credential = {
      status: 'active',
      apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      expires_at: '2026-12-25T11:46:33.000Z',
      revoke_reason: null,
      reject_reason: null,
      extension,
    };
    answered = { ...history, as_of: '2026-11-25T11:46:39.999Z', state: { credential, scopes: [], expired: false } };
    render(<Auditor />);
    fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: '7' } });
    fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
    const state = await screen.findByTestId('state-as-of');
    expect(state.textContent).toContain(`extension to ${when(extension.expires_at)} pending`);
  });
});
