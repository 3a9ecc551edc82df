import { RecordedEvent } from '../../src/stores/ports';
import {
  digestMail,
  DigestItem,
  DigestState,
  dueFor,
  EMPTY_DIGEST,
  pruned,
  reviewersOf,
  RoleGroups,
  stillUndecided,
} from '../../src/mail/reviewer-digest';

const MINUTE = 60_000;
const item = (position: string, at: string): DigestItem => ({
  position,
  at,
  kind: 'application',
  member_id: 1,
  username: 'alice',
  scope: null,
  reason: null,
});

describe('who reviews', () => {
  const groups: RoleGroups = new Map([
    [1, { enabled: true, permissions: ['credential.review'] }],
    [2, { enabled: true, permissions: ['audit.read'] }],
    [3, { enabled: false, permissions: ['credential.review'] }],
  ]);
  const admin = (id: number, is_super: boolean, role_id: number | null, email: string | null) => ({
    id,
    username: `a${id}`,
    is_super,
    role_id,
    email,
  });

  it('counts super administrators and members of an enabled group holding credential.review, with an address', () => {
    const admins = [
      admin(1, true, null, 'root@example.com'),
      admin(2, false, 1, 'op@example.com'),
      admin(3, false, 2, 'audit@example.com'),
      admin(4, false, 3, 'off@example.com'),
      admin(5, false, 1, null),
      admin(6, false, 99, 'gone@example.com'),
    ];
    expect(reviewersOf(admins, groups).map((a) => a.id)).toEqual([1, 2]);
  });
});

describe('when a digest is due', () => {
  const start = Date.parse('2026-01-01T10:00:00Z');
  const state: DigestState = {
    ...EMPTY_DIGEST,
    items: [item('0005', '2026-01-01T10:00:00Z'), item('0007', '2026-01-01T10:03:00Z')],
  };

  it('waits a whole window from the first item waiting, then lists every item waiting', () => {
    expect(dueFor(state, 1, start + 5 * MINUTE - 1, 5 * MINUTE)).toEqual([]);
    expect(dueFor(state, 1, start + 5 * MINUTE, 5 * MINUTE).map((i) => i.position)).toEqual(['0005', '0007']);
  });

  it('lists only what came after the last mail, and not within a window of it', () => {
    const mailed = { ...state, sent: { '1': { at: '2026-01-01T10:04:00Z', up_to: '0005' } } };
    expect(dueFor(mailed, 1, start + 8 * MINUTE, 5 * MINUTE)).toEqual([]);
    expect(dueFor(mailed, 1, start + 9 * MINUTE, 5 * MINUTE).map((i) => i.position)).toEqual(['0007']);
  });

  it('keeps an item until every reviewer was mailed it', () => {
    const mailed = {
      ...state,
      sent: { '1': { at: '2026-01-01T10:04:00Z', up_to: '0007' }, '2': { at: '2026-01-01T10:04:00Z', up_to: '0005' } },
    };
    expect(pruned(mailed, [1, 2]).map((i) => i.position)).toEqual(['0007']);
    expect(pruned(mailed, [1])).toEqual([]);
  });
});

describe('what is still to review', () => {
  const scope = (position: string, member_id: number, name: string): DigestItem => ({
    ...item(position, '2026-01-01T10:00:00Z'),
    kind: 'scope',
    member_id,
    scope: name,
    reason: 'why',
  });
  const waiting = [
    item('0001', '2026-01-01T10:00:00Z'),
    scope('0002', 1, 'addons.read'),
    scope('0003', 1, 'member-groups.read'),
    { ...item('0004', '2026-01-01T10:01:00Z'), member_id: 2 },
  ];
  const event = (type: string, data: Record<string, unknown>): RecordedEvent => ({
    stream: `credential-${String(data.member_id)}`,
    revision: 5,
    position: '0009',
    type,
    data,
    metadata: { actor: { kind: 'admin', id: 1 }, request_id: 'r', time: '2026-01-01T10:02:00Z' },
  });
  const left = (type: string, data: Record<string, unknown>) =>
    stillUndecided(waiting, event(type, data)).map((i) => i.position);

  it("drops a member's application once approved or rejected, and no one else's", () => {
    expect(left('CredentialApproved', { member_id: 1, expires_at: null })).toEqual(['0002', '0003', '0004']);
    expect(left('CredentialRejected', { member_id: 2, reason: 'no' })).toEqual(['0001', '0002', '0003']);
  });

  it('drops a scope request once that scope is decided, and every scope request of a revoked credential', () => {
    expect(left('ScopeApproved', { member_id: 1, scope: 'addons.read' })).toEqual(['0001', '0003', '0004']);
    expect(left('ScopeRejected', { member_id: 1, scope: 'member-groups.read', reason: 'no' })).toEqual([
      '0001',
      '0002',
      '0004',
    ]);
    expect(left('CredentialRevoked', { member_id: 1, reason: 'leaked' })).toEqual(['0001', '0004']);
  });

  it("drops a member's scope requests when the member applies again: no scope carries over to the new credential", () => {
    expect(left('CredentialApplied', { member_id: 1, username: 'alice' })).toEqual(['0001', '0004']);
  });

  it('keeps everything for an event that decides nothing waiting', () => {
    expect(left('CredentialClaimed', { member_id: 1, apiid: 'a', key_digest: 'd', expires_at: null })).toEqual([
      '0001',
      '0002',
      '0003',
      '0004',
    ]);
    expect(left('ScopeApproved', { member_id: 2, scope: 'addons.read' })).toEqual(['0001', '0002', '0003', '0004']);
  });
});

describe('the digest mail', () => {
  it("keeps a member's reason on its own line, inside its quotes: it cannot forge another entry or a link line", () => {
    const forged =
      'x"\nReview them urgently: http://evil.example/login\n\nSubject: fake\r\n- member 1, alice: addons.read';
    const scope: DigestItem = {
      position: '0009',
      at: '2026-01-01T10:00:00Z',
      kind: 'scope',
      member_id: 2,
      username: 'bob',
      scope: 'member-groups.read',
      reason: forged,
    };
    const lines = digestMail([scope], 'https://platform.example').text.split('\n');
    const entries = lines.filter((line) => line.startsWith('- '));
    expect(entries).toEqual([
      '- member 2, bob: member-groups.read, because "x"\\nReview them urgently: http://evil.example/login\\n\\nSubject: fake\\r\\n- member 1, alice: addons.read"',
    ]);
    expect(lines.filter((line) => line.startsWith('Review them'))).toEqual([
      'Review them: https://platform.example/ui/admin/scopes',
    ]);
  });

  it('lists a member who applied twice within the window once', () => {
    const twice = [item('0010', '2026-01-01T10:00:00Z'), item('0012', '2026-01-01T10:02:00Z')];
    const mail = digestMail(twice, 'https://platform.example');
    expect(mail.subject).toBe('To review: 1 application(s)');
    expect(mail.text.split('\n').filter((line) => line.startsWith('- '))).toEqual(['- member 1, alice']);
  });
});
