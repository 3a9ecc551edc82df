import { render, screen } from '@testing-library/preact';
import type { Schemas } from '../api/client';
import { credentialOf } from '../../test/credential';
import { DeveloperDashboard } from './dashboard';

const credential = credentialOf({ status: 'pending', applied_at: '2026-11-23T10:00:00.000Z' });

/** The dashboard of a member whose credential differs from the pending one above by `c`, with no scope. */
const dashboardWith = (c: Partial<Schemas['Credential']>): Schemas['Dashboard'] => ({
  member: { id: 7, username: 'alice', nickname: '', email: null, mobile: null },
  credential: { ...credential, ...c },
  scopes: [],
});

/** A dashboard with nothing just done. */
const quiet = { reload: () => {}, outcome: { message: '', serial: 0 }, onOutcome: () => {} };

const scope = (name: string, reason: string, reject_reason: string | null): Schemas['Scope'] => ({
  name,
  status: reject_reason ? 'rejected' : 'pending',
  reason,
  requested_at: '2026-11-23T10:00:00.000Z',
  reviewed_at: reject_reason ? '2026-11-23T10:05:00.000Z' : null,
  reject_reason,
  revoked_at: null,
  revoke_reason: null,
});

describe('developer dashboard', () => {
  it("labels each cell of the member's scopes with its column, so stacked rows tell the member's reason from the decision", () => {
    const dashboard: Schemas['Dashboard'] = {
      member: { id: 7, username: 'alice', nickname: '', email: null, mobile: null },
      credential,
      scopes: [
        scope('member-groups.read', 'Show our groups', 'Not needed for a catalogue'),
        scope('addons.read', 'List the add-ons', null),
      ],
    };
    render(<DeveloperDashboard dashboard={dashboard} {...quiet} />);
    const table = screen.getByRole('table');
    const headings = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headings).toEqual(['Scope', 'Status', 'Your reason', 'Decision']);
    for (const row of table.querySelectorAll('tbody tr')) {
      expect([...row.querySelectorAll('td')].map((td) => td.getAttribute('data-label'))).toEqual(headings);
    }
    expect(screen.getByText('Show our groups').getAttribute('data-label')).toBe('Your reason');
    expect(screen.getByText('Not needed for a catalogue').getAttribute('data-label')).toBe('Decision');
    expect(screen.getByText('member-groups.read').classList.contains('scope')).toBe(true);
  });
});

describe('a credential past its expiry', () => {
  const past = '2026-01-01T00:00:00.000Z';

  it('offers to apply again, or to extend, instead of a rotation that would be refused', () => {
    render(
      <DeveloperDashboard
        dashboard={dashboardWith({ status: 'active', apiid: 'ak_aaaaaaaaaaaaaaaaaaaa', expires_at: past })}
        {...quiet}
      />,
    );
    expect(screen.getByText(/the key is refused\. Ask for an extension below, or apply again/)).not.toBeNull();
    expect(screen.getByText('active, expired').classList.contains('expired')).toBe(true);
    // In the past tense, beside "Expired on": the date is not still to come.
    expect(screen.getByTestId('expires-at').parentElement!.textContent).toMatch(/^Key expired: /);
    expect(screen.getByRole('button', { name: 'Apply for API credentials' })).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'Rotate the key' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Request scopes' })).toBeNull();
  });

  it('says an approval that ran out cannot be claimed', () => {
    render(<DeveloperDashboard dashboard={dashboardWith({ status: 'approved', expires_at: past })} {...quiet} />);
    expect(screen.getByText(/The approval ran out on .*, before the key was claimed\. Apply again\./)).not.toBeNull();
    expect(screen.queryByRole('link', { name: 'Claim your key' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply for API credentials' })).not.toBeNull();
  });

  it('before its expiry, an active credential still offers the rotation and no new application', () => {
    render(
      <DeveloperDashboard
        dashboard={dashboardWith({
          status: 'active',
          apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
          expires_at: '2999-01-01T00:00:00.000Z',
        })}
        {...quiet}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Rotate the key' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply for API credentials' })).toBeNull();
  });
});

describe("the key's expiry and the history's review step", () => {
  const reviewed = '2026-11-23T10:05:00.000Z';

  it.each([
    ['pending', {}],
    ['rejected', { reviewed_at: reviewed, reject_reason: 'Not a partner' }],
    [
      'revoked',
      {
        reviewed_at: reviewed,
        claimed_at: reviewed,
        revoked_at: reviewed,
        revoke_reason: 'Leaked',
        apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      },
    ],
  ] as [Schemas['Credential']['status'], Partial<Schemas['Credential']>][])(
    'says nothing of an expiry while %s',
    (status, c) => {
      render(<DeveloperDashboard dashboard={dashboardWith({ status, ...c })} {...quiet} />);
      expect(screen.queryByText(/Key expires/)).toBeNull();
      expect(screen.queryByTestId('expires-at')).toBeNull();
    },
  );

  it.each(['approved', 'active'] as const)('shows the expiry of an %s credential', (status) => {
    render(
      <DeveloperDashboard
        dashboard={dashboardWith({
          status,
          reviewed_at: reviewed,
          apiid: status === 'active' ? 'ak_aaaaaaaaaaaaaaaaaaaa' : null,
        })}
        {...quiet}
      />,
    );
    expect(screen.getByTestId('expires-at').textContent).toBe('never');
  });

  it('says "Approved on" for an approval and "Rejected on" for a rejection', () => {
    const { unmount } = render(
      <DeveloperDashboard dashboard={dashboardWith({ status: 'approved', reviewed_at: reviewed })} {...quiet} />,
    );
    expect(screen.getByText(/^Approved on /)).not.toBeNull();
    expect(screen.queryByText(/Reviewed on/)).toBeNull();
    unmount();
    render(
      <DeveloperDashboard
        dashboard={dashboardWith({ status: 'rejected', reviewed_at: reviewed, reject_reason: 'Not a partner' })}
        {...quiet}
      />,
    );
    expect(screen.getByText(/^Rejected on /).textContent).toContain('“Not a partner”');
  });
});
