import { fireEvent, render, screen } from '@testing-library/preact';
import type { Schemas } from '../api/client';
import { when } from '../ui/load';
import { Timeline } from './timeline';

const event = (overrides: Partial<Schemas['AuditEvent']>): Schemas['AuditEvent'] => ({
  position: '1',
  stream: 'credential-1',
  revision: 0,
  type: 'CredentialApplied',
  time: '2026-11-20T10:00:00.000Z',
  actor: { kind: 'member', id: 1, username: 'alice' },
  summary: 'applied for API credentials',
  data: {},
  schema_version: 1,
  request_id: 'req-1',
  ...overrides,
});

/** Events recorded one after the other: their positions follow the order given. */
const inOrder = (...overrides: Partial<Schemas['AuditEvent']>[]) =>
  overrides.map((o, i) => event({ position: String(i + 1), ...o }));

describe('credential timeline', () => {
  it('names the actors that are no account: a secret scanner, an approval rule, single sign-on', () => {
    render(
      <Timeline
        events={inOrder(
          { type: 'KeyLeakReported', actor: { kind: 'scanner', id: 'github', username: null } },
          { type: 'CredentialApproved', actor: { kind: 'rule', id: 'rule-3', username: null } },
          {
            type: 'AdministratorProvisioned',
            actor: { kind: 'sso', id: 'u-42', username: null },
          },
        )}
      />,
    );
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toContain('by the secret scanner github');
    expect(items[1]).toContain('by the approval rule rule-3');
    expect(items[2]).toContain('by single sign-on (subject u-42)');
  });

  it('tells who did what, when and why, oldest first', () => {
    render(
      <Timeline
        events={inOrder(
          {},
          {
            type: 'KeyRotated',
            summary: 'rotated the key of API id ak_a; the previous one stayed valid until 2026-11-20T11:00:00.000Z',
          },
          {
            type: 'CredentialRevoked',
            time: '2026-11-21T09:30:00.000Z',
            actor: { kind: 'admin', id: 1, username: 'admin' },
            summary: 'revoked the credential and its live scopes',
            reason: 'Key leaked',
          },
          {
            type: 'RoleGroupDisabled',
            actor: { kind: 'cli', id: 'root', username: null },
            summary: 'role group disabled',
          },
        )}
      />,
    );
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toContain('applied for API credentials');
    expect(items[0]).toContain('by member alice');
    expect(items[1]).toContain(`the previous one stayed valid until ${when('2026-11-20T11:00:00.000Z')}`);
    expect(items[2]).toContain('revoked the credential');
    expect(items[2]).toContain('by administrator admin');
    expect(items[2]).toContain('Key leaked');
    expect(items[3]).toContain('by the command line (root)');
    expect(screen.getAllByRole('listitem')[2]!.querySelector('time')!.getAttribute('datetime')).toBe(
      '2026-11-21T09:30:00.000Z',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('lists a stored event with no readable time or actor as it is, and offers no state after it', () => {
    const stored = event({
      position: '9',
      type: 'ScopeRevoked',
      time: null,
      actor: null,
      summary: 'revoked scope addons.read',
      invalid: 'metadata.actor: Invalid input',
    });
    render(<Timeline events={[event({}), stored]} onStateAfter={() => {}} />);
    const item = screen.getAllByRole('listitem')[1]!;
    expect(item.textContent).toContain('—');
    expect(item.textContent).toContain('by no actor recorded');
    expect(item.textContent).toContain('stored event does not fit its schema: metadata.actor: Invalid input');
    expect(screen.getAllByRole('button', { name: /^State after this/ })).toHaveLength(1);
  });

  it('offers the state right after each event', () => {
    const asked: string[] = [];
    render(
      <Timeline
        events={inOrder(
          {},
          {
            type: 'CredentialApproved',
            summary: 'approved the application',
            time: '2026-11-20T10:00:00.075Z',
          },
        )}
        onStateAfter={(e) => asked.push(e.time ?? '')}
      />,
    );
    // Named with its event: a list of buttons all called "State after this" tells nothing apart.
    fireEvent.click(screen.getByRole('button', { name: /^State after this: approved the application, / }));
    expect(asked).toEqual(['2026-11-20T10:00:00.075Z']);
  });

  it('offers the state after events recorded at one instant (one decision) only once, after the last of them: none came between', () => {
    const requested = (position: string, scope: string) =>
      event({
        position,
        type: 'ScopeRequested',
        summary: `requested scope ${scope}`,
        time: '2026-11-20T10:05:00.000Z',
      });
    render(
      <Timeline
        events={[event({}), requested('2', 'addons.read'), requested('3', 'member-groups.read')]}
        onStateAfter={() => {}}
      />,
    );
    const offered = screen
      .getAllByRole('button', { name: /^State after this/ })
      .map((b) => b.getAttribute('aria-label'));
    expect(offered).toEqual([
      expect.stringMatching(/^State after this: applied for API credentials/),
      expect.stringMatching(/^State after this: requested scope member-groups.read/),
    ]);
  });

  it("shows the instants in a summary in the row's local format, keeping each one's UTC value", () => {
    const until = '2026-11-25T18:25:20.437Z';
    const earlier = '2026-11-25T17:00:00.000Z';
    const summary = `rotated the key of API id ak_a; the previous one stayed valid until ${until}, an earlier one until ${earlier}`;
    render(
      <Timeline
        events={[event({ type: 'KeyRotated', time: '2026-11-25T17:25:20.437Z', summary })]}
        onStateAfter={() => {}}
      />,
    );
    const item = screen.getByRole('listitem');
    expect(item.textContent).not.toContain(until);
    const [row, first, second] = [...item.querySelectorAll('time')];
    expect(first!.textContent).toBe(when(until));
    expect(first!.getAttribute('datetime')).toBe(until);
    expect(first!.getAttribute('title')).toBe(until);
    expect(second!.textContent).toBe(when(earlier));
    // The same format as the row's own time.
    expect(row!.textContent).toBe(when('2026-11-25T17:25:20.437Z'));
    expect(item.querySelector('strong')!.textContent).toBe(
      `rotated the key of API id ak_a; the previous one stayed valid until ${when(until)}, an earlier one until ${when(earlier)}`,
    );
    // The button's name says it the same way.
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe(
      `State after this: rotated the key of API id ak_a; the previous one stayed valid until ${when(until)}, an earlier one until ${when(earlier)}, ${when('2026-11-25T17:25:20.437Z')}`,
    );
  });

  it("tells the member's account events among the credential's, each by its real actor", () => {
    const account = (overrides: Partial<Schemas['AuditEvent']>) =>
      event({ stream: 'member-alice', data: { member_id: 1 }, ...overrides });
    render(
      <Timeline
        events={[
          account({
            position: '1',
            type: 'MemberRegistered',
            summary: 'registered as member 1 with the username alice',
          }),
          event({ position: '2', revision: 0 }),
          account({
            position: '3',
            revision: 1,
            type: 'PasswordResetRequested',
            actor: { kind: 'system', id: null, username: null },
            summary: 'a password-reset link was mailed to member 1, good until 2026-11-20T10:30:00.000Z',
          }),
          account({
            position: '4',
            revision: 2,
            type: 'PasswordResetByAdministrator',
            actor: { kind: 'admin', id: 3, username: 'carol' },
            data: { member_id: 1, admin_id: 3 },
            summary: "administrator 3 reset member 1's password to a one-time password; every session of theirs ended",
          }),
        ]}
      />,
    );
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toContain('registered as member 1 with the username alice');
    expect(items[0]).toContain('by member alice');
    expect(items[1]).toContain('applied for API credentials');
    expect(items[2]).toContain('by the system');
    expect(items[3]).toContain("administrator 3 reset member 1's password to a one-time password");
    expect(items[3]).toContain('by administrator carol');
  });

  it('says so when nothing about the member had happened yet', () => {
    render(<Timeline events={[]} />);
    expect(screen.getByText('No event about this member.')).not.toBeNull();
  });
});
