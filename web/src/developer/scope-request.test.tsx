import { fireEvent, render, screen } from '@testing-library/preact';
import { ScopeRequest } from './scope-request';
import { envelope } from '../../test/envelope';

const offers = [
  { name: 'addons.read', description: 'Read the installed add-ons', status: 'none' },
  { name: 'member-groups.read', description: 'Read the member groups', status: 'none' },
];

let calls: Request[];
beforeEach(() => {
  calls = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    calls.push(input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost')));
    return envelope(200, { code: 0, message: 'ok', data: { list: offers } });
  }) as typeof fetch;
});

describe('scope request screen', () => {
  it.each([
    ['none', /you do not have one yet/, 'Apply on your dashboard', '/ui/developer'],
    ['pending', /waiting for an administrator to review it/, 'See its status on your dashboard', '/ui/developer'],
    ['approved', /claim your key first/, 'Claim your key', '/ui/developer/claim'],
    ['rejected', /rejected/, 'Apply again on your dashboard', '/ui/developer'],
    ['revoked', /revoked/, 'Apply again on your dashboard', '/ui/developer'],
  ] as const)('with a credential %s, offers no form and says what to do first', (status, why, link, href) => {
    render(<ScopeRequest status={status} onRequested={() => {}} />);
    expect(screen.queryByLabelText('Purpose of use')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Request' })).toBeNull();
    expect(screen.getByText(why)).not.toBeNull();
    expect(screen.getByRole('link', { name: link }).getAttribute('href')).toBe(href);
    // No API jargon, and no call that could only be refused.
    expect(document.body.textContent).not.toMatch(/status is|POST \//);
    expect(calls).toHaveLength(0);
  });

  it('with an active credential, offers the scopes and the purpose of use, names unbroken', async () => {
    render(<ScopeRequest status="active" onRequested={() => {}} />);
    expect(await screen.findByLabelText('Purpose of use')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Request' })).not.toBeNull();
    expect(screen.getByText('member-groups.read').classList.contains('scope')).toBe(true);
  });

  it('an empty request is refused in the page, in words that say what is missing, and sends nothing', async () => {
    render(<ScopeRequest status="active" onRequested={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Request' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Nothing was requested: tick at least one scope, and say what you will use it for under "Purpose of use".',
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});
