import { credentialDecider, CredentialCommand, CredentialStatus, credentialStream } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
import { MAX_GRACE_SECONDS } from '../../src/credential/grace-period';
import { fold } from '../../src/shared/domain/decider';
import { given } from '../support/decider-spec';
import { credentialEvents } from './fixtures';

const member_id = 7;
const APIID = 'ak_aaaaaaaaaaaaaaaaaaaa';
const NEW_APIID = 'ak_bbbbbbbbbbbbbbbbbbbb';
const KEY = 'a'.repeat(64);
const NEW_KEY = 'b'.repeat(64);
const NOW = '2025-03-01T10:00:00.000Z';

// Events, written once so that histories read like what the service would have appended.
const events = credentialEvents(member_id);
const applied = events.applied('alice');
const approved = events.approved();
const rejected = events.rejected('incomplete');
const claimed = (apiid = APIID, key_digest = KEY) => events.claimed(apiid, key_digest);
const revoked = events.revoked('abuse');
const scopeRequested = (scope: string) => events.requested(scope, 'dashboard');
const { scopeApproved } = events;
const scopeRejected = (scope: string) => events.scopeRejected(scope, 'no');
const scopeRevoked = (scope: string) => events.scopeRevoked(scope, 'over');

const active = [applied, approved, claimed()];

type CommandType = CredentialCommand['type'];
type CommandOf<T extends CommandType> = Extract<CredentialCommand, { type: T }>;

/** One command of each type: a mapped type, so a new command fails to compile until it is listed. */
const commands: { [T in CommandType]: CommandOf<T> } = {
  ApplyCredential: { type: 'ApplyCredential', data: { member_id, username: 'alice', now: NOW } },
  ApproveCredential: {
    type: 'ApproveCredential',
    data: { member_id, expires_at: null, now: '2026-11-23T00:00:00.000Z' },
  },
  RejectCredential: { type: 'RejectCredential', data: { member_id, reason: '  not a real company  ' } },
  ClaimCredential: { type: 'ClaimCredential', data: { member_id, apiid: NEW_APIID, key_digest: NEW_KEY, now: NOW } },
  RotateKey: { type: 'RotateKey', data: { member_id, key_digest: NEW_KEY, grace_seconds: 60, now: NOW } },
  RevokeCredential: { type: 'RevokeCredential', data: { member_id, reason: ' leaked key ' } },
  RequestScopes: {
    type: 'RequestScopes',
    data: { member_id, scopes: ['addons.read', 'member-groups.read'], reason: ' sync ' },
  },
  ApproveScope: { type: 'ApproveScope', data: { member_id, scope: 'addons.read' } },
  RejectScope: { type: 'RejectScope', data: { member_id, scope: 'addons.read', reason: 'no need' } },
  RevokeScope: { type: 'RevokeScope', data: { member_id, scope: 'addons.read', reason: 'no longer' } },
  NoteExpiry: { type: 'NoteExpiry', data: { member_id, now: NOW, reminder_days: [30, 7, 1] } },
  RequestExtension: {
    type: 'RequestExtension',
    data: { member_id, expires_at: '2099-01-01T00:00:00.000Z', reason: 'longer project', now: NOW },
  },
  ApproveExtension: { type: 'ApproveExtension', data: { member_id } },
  RejectExtension: { type: 'RejectExtension', data: { member_id, reason: 'no' } },
  ReportKeyLeak: {
    type: 'ReportKeyLeak',
    data: {
      member_id,
      apiid: APIID,
      key_digest: KEY,
      url: 'https://github.com/octo/repo/blob/1/.env',
      source: 'content',
      note: null,
      action: 'quarantine',
      now: NOW,
    },
  },
};

/** The report of the key KEY: recorded in every status, quarantined only while the open API accepts the key. */
const leaked = (accepted: boolean): CredentialEvent[] => [
  {
    type: 'KeyLeakReported',
    data: {
      member_id,
      apiid: APIID,
      key_digest: KEY,
      key_fingerprint: KEY.slice(0, 8),
      url: 'https://github.com/octo/repo/blob/1/.env',
      source: 'content',
      note: null,
      accepted,
      quarantined: accepted,
    },
  },
];

/** Events, or the error code of a refusal. */
type Outcome = CredentialEvent[] | string;

const ALLOWED = {
  ApplyCredential: [applied],
  ApproveCredential: [approved],
  RejectCredential: [events.rejected('not a real company')],
  ClaimCredential: [claimed(NEW_APIID, NEW_KEY)],
  RotateKey: [events.rotated(APIID, NEW_KEY, KEY, '2025-03-01T10:01:00.000Z')],
  RevokeCredential: [events.revoked('leaked key')],
  RequestScopes: [events.requested('addons.read'), events.requested('member-groups.read')],
} satisfies Partial<Record<CommandType, CredentialEvent[]>>;

const NOT_ACTIVE = {
  RotateKey: 'credential_not_active',
  RevokeCredential: 'credential_not_active',
  RequestScopes: 'credential_not_active',
  ApproveScope: 'credential_not_active',
  RejectScope: 'credential_not_active',
  RevokeScope: 'credential_not_active',
  // Nothing to tell: none of these histories has a key that expires (the expiry tests below do).
  NoteExpiry: [] as CredentialEvent[],
  RequestExtension: 'credential_not_active',
  ApproveExtension: 'credential_not_active',
  RejectExtension: 'credential_not_active',
  ReportKeyLeak: leaked(false),
} as const;

/** Every status against every command: the credential state machine (src/credential/decider.ts). */
const MACHINE: Record<CredentialStatus, { history: CredentialEvent[]; outcomes: { [T in CommandType]: Outcome } }> = {
  none: {
    history: [],
    outcomes: {
      ApplyCredential: ALLOWED.ApplyCredential,
      ApproveCredential: 'credential_not_pending',
      RejectCredential: 'credential_not_pending',
      ClaimCredential: 'credential_not_approved',
      ...NOT_ACTIVE,
    },
  },
  pending: {
    history: [applied],
    outcomes: {
      ApplyCredential: 'credential_already_applied',
      ApproveCredential: ALLOWED.ApproveCredential,
      RejectCredential: ALLOWED.RejectCredential,
      ClaimCredential: 'credential_not_approved',
      ...NOT_ACTIVE,
    },
  },
  approved: {
    history: [applied, approved],
    outcomes: {
      ApplyCredential: 'credential_already_applied',
      ApproveCredential: 'credential_not_pending',
      RejectCredential: 'credential_not_pending',
      ClaimCredential: ALLOWED.ClaimCredential,
      ...NOT_ACTIVE,
      // An approval given by mistake can be withdrawn before the claim.
      RevokeCredential: ALLOWED.RevokeCredential,
    },
  },
  rejected: {
    history: [applied, rejected],
    outcomes: {
      ApplyCredential: ALLOWED.ApplyCredential,
      ApproveCredential: 'credential_not_pending',
      RejectCredential: 'credential_not_pending',
      ClaimCredential: 'credential_not_approved',
      ...NOT_ACTIVE,
    },
  },
  active: {
    history: active,
    outcomes: {
      ApplyCredential: 'credential_already_applied',
      ApproveCredential: 'credential_not_pending',
      RejectCredential: 'credential_not_pending',
      ClaimCredential: 'credential_already_claimed',
      RotateKey: ALLOWED.RotateKey,
      RevokeCredential: ALLOWED.RevokeCredential,
      RequestScopes: ALLOWED.RequestScopes,
      // No scope requested yet: the scope table below covers the scope commands in full.
      ApproveScope: 'scope_not_pending',
      RejectScope: 'scope_not_pending',
      RevokeScope: 'scope_not_approved',
      NoteExpiry: [],
      RequestExtension: 'credential_never_expires',
      ApproveExtension: 'extension_not_requested',
      RejectExtension: 'extension_not_requested',
      ReportKeyLeak: leaked(true),
    },
  },
  revoked: {
    history: [...active, revoked],
    outcomes: {
      ApplyCredential: ALLOWED.ApplyCredential,
      ApproveCredential: 'credential_not_pending',
      RejectCredential: 'credential_not_pending',
      ClaimCredential: 'credential_not_approved',
      ...NOT_ACTIVE,
    },
  },
};

type ScopeCase = 'not requested' | 'pending' | 'approved' | 'rejected' | 'revoked';
type ScopeCommandType = 'RequestScopes' | 'ApproveScope' | 'RejectScope' | 'RevokeScope';

const scopeCommands: { [T in ScopeCommandType]: CommandOf<T> } = {
  RequestScopes: { type: 'RequestScopes', data: { member_id, scopes: ['addons.read'], reason: 'again' } },
  ApproveScope: commands.ApproveScope,
  RejectScope: commands.RejectScope,
  RevokeScope: commands.RevokeScope,
};

const requestedAgain: CredentialEvent[] = [events.requested('addons.read', 'again')];

/** Every status of the scope `addons.read` on an active credential against every scope command. */
const SCOPES: Record<ScopeCase, { history: CredentialEvent[]; outcomes: { [T in ScopeCommandType]: Outcome } }> = {
  'not requested': {
    history: active,
    outcomes: {
      RequestScopes: requestedAgain,
      ApproveScope: 'scope_not_pending',
      RejectScope: 'scope_not_pending',
      RevokeScope: 'scope_not_approved',
    },
  },
  pending: {
    history: [...active, scopeRequested('addons.read')],
    outcomes: {
      RequestScopes: 'scope_already_requested',
      ApproveScope: [scopeApproved('addons.read')],
      RejectScope: [events.scopeRejected('addons.read', 'no need')],
      RevokeScope: 'scope_not_approved',
    },
  },
  approved: {
    history: [...active, scopeRequested('addons.read'), scopeApproved('addons.read')],
    outcomes: {
      RequestScopes: 'scope_already_requested',
      ApproveScope: 'scope_not_pending',
      RejectScope: 'scope_not_pending',
      RevokeScope: [events.scopeRevoked('addons.read', 'no longer')],
    },
  },
  rejected: {
    history: [...active, scopeRequested('addons.read'), scopeRejected('addons.read')],
    outcomes: {
      RequestScopes: requestedAgain,
      ApproveScope: 'scope_not_pending',
      RejectScope: 'scope_not_pending',
      RevokeScope: 'scope_not_approved',
    },
  },
  revoked: {
    history: [...active, scopeRequested('addons.read'), scopeApproved('addons.read'), scopeRevoked('addons.read')],
    outcomes: {
      RequestScopes: requestedAgain,
      ApproveScope: 'scope_not_pending',
      RejectScope: 'scope_not_pending',
      RevokeScope: 'scope_not_approved',
    },
  },
};

function expectOutcome(history: CredentialEvent[], command: CredentialCommand, outcome: Outcome): void {
  const spec = given(credentialDecider, history).when(command);
  if (typeof outcome === 'string') spec.thenRefuses(outcome);
  else spec.then(outcome);
}

const statusOf = (history: CredentialEvent[]) => fold(credentialDecider, history).status;
const scopesOf = (history: CredentialEvent[]) => fold(credentialDecider, history).scopes;
const decide = (history: CredentialEvent[], command: CredentialCommand) =>
  credentialDecider.decide(command, fold(credentialDecider, history));

describe('credential state machine', () => {
  const rows = Object.entries(MACHINE).flatMap(([status, { history, outcomes }]) =>
    Object.entries(outcomes).map(([type, outcome]) => ({
      status: status as CredentialStatus,
      type: type as CommandType,
      history,
      outcome,
      verdict:
        typeof outcome === 'string' ? `refuses with ${outcome}` : `appends ${outcome.map((e) => e.type).join(', ')}`,
    })),
  );

  it.each(Object.entries(MACHINE))('the %s history really leads to that status', (status, { history }) => {
    expect(statusOf(history)).toBe(status);
  });

  it.each(rows)('$status + $type $verdict', ({ history, type, outcome }) => {
    expectOutcome(history, commands[type], outcome);
  });
});

describe('scope state machine on an active credential', () => {
  const rows = Object.entries(SCOPES).flatMap(([scope, { history, outcomes }]) =>
    Object.entries(outcomes).map(([type, outcome]) => ({
      scope,
      type: type as ScopeCommandType,
      history,
      outcome,
      verdict:
        typeof outcome === 'string' ? `refuses with ${outcome}` : `appends ${outcome.map((e) => e.type).join(', ')}`,
    })),
  );

  it.each(rows)('scope $scope + $type $verdict', ({ history, type, outcome }) => {
    expectOutcome(history, scopeCommands[type], outcome);
  });
});

describe('reasons of administrators and members', () => {
  const reasonCommands: Array<{
    name: string;
    history: CredentialEvent[];
    command: (reason: string) => CredentialCommand;
  }> = [
    {
      name: 'RejectCredential',
      history: [applied],
      command: (reason) => ({ type: 'RejectCredential', data: { member_id, reason } }),
    },
    {
      name: 'RevokeCredential',
      history: active,
      command: (reason) => ({ type: 'RevokeCredential', data: { member_id, reason } }),
    },
    {
      name: 'RequestScopes',
      history: active,
      command: (reason) => ({ type: 'RequestScopes', data: { member_id, scopes: ['addons.read'], reason } }),
    },
    {
      name: 'RejectScope',
      history: [...active, scopeRequested('addons.read')],
      command: (reason) => ({ type: 'RejectScope', data: { member_id, scope: 'addons.read', reason } }),
    },
    {
      name: 'RevokeScope',
      history: [...active, scopeRequested('addons.read'), scopeApproved('addons.read')],
      command: (reason) => ({ type: 'RevokeScope', data: { member_id, scope: 'addons.read', reason } }),
    },
  ];

  const invalid: Array<[string, string]> = [
    ['empty', ''],
    ['blank', ' \t\n '],
    ['zero-width spaces only', '\u200b\u200b\u200b'],
    ['NUL characters only', '\u0000\u0000'],
    ['invisible format characters only', '\u200d\ufeff\u2060\u00ad'],
    ['501 characters', 'x'.repeat(501)],
  ];

  describe.each(reasonCommands)('$name', ({ history, command }) => {
    it.each(invalid)('refuses a reason that is %s with invalid_reason', (_label, reason) => {
      given(credentialDecider, history).when(command(reason)).thenRefuses('invalid_reason');
    });

    it('accepts 1 and 500 characters, counted after trimming, and records the trimmed reason', () => {
      const [one] = decide(history, command('  x  '));
      expect(one?.data).toMatchObject({ reason: 'x' });
      const long = 'y'.repeat(500);
      const [max] = decide(history, command(`   ${long}   `));
      expect(max?.data).toMatchObject({ reason: long });
    });
  });
});

describe('RequestScopes refuses the whole request and appends nothing', () => {
  const request = (scopes: string[], reason = 'sync'): CredentialCommand => ({
    type: 'RequestScopes',
    data: { member_id, scopes, reason },
  });

  it.each<[string, CredentialEvent[], string[], string]>([
    ['an unknown scope among known ones', active, ['addons.read', 'users.write'], 'unknown_scope'],
    ['a name that only exists on Object.prototype', active, ['toString'], 'unknown_scope'],
    ['a duplicate name', active, ['addons.read', 'addons.read'], 'duplicate_scope'],
    [
      'a scope already pending',
      [...active, scopeRequested('member-groups.read')],
      ['addons.read', 'member-groups.read'],
      'scope_already_requested',
    ],
    [
      'a scope already approved',
      [...active, scopeRequested('member-groups.read'), scopeApproved('member-groups.read')],
      ['addons.read', 'member-groups.read'],
      'scope_already_requested',
    ],
    ['an empty list', active, [], 'no_scopes'],
  ])('for %s', (_label, history, scopes, error) => {
    given(credentialDecider, history).when(request(scopes)).thenRefuses(error);
  });

  it('for a reason over 500 characters, even when every scope is fine', () => {
    given(credentialDecider, active)
      .when(request(['addons.read'], 'r'.repeat(501)))
      .thenRefuses('invalid_reason');
  });

  it('lets a rejected scope and a revoked scope be requested again in one request', () => {
    const history = [
      ...active,
      ...[scopeRequested('addons.read'), scopeRejected('addons.read')],
      ...[
        scopeRequested('member-groups.read'),
        scopeApproved('member-groups.read'),
        scopeRevoked('member-groups.read'),
      ],
    ];
    given(credentialDecider, history)
      .when(request(['member-groups.read', 'addons.read']))
      .then([events.requested('member-groups.read'), events.requested('addons.read')]);
  });
});

describe('scope review of an unknown scope', () => {
  it.each<CredentialCommand>([
    { type: 'ApproveScope', data: { member_id, scope: 'users.write' } },
    { type: 'RejectScope', data: { member_id, scope: 'users.write', reason: 'no' } },
    { type: 'RevokeScope', data: { member_id, scope: 'users.write', reason: 'no' } },
  ])('$type refuses with unknown_scope', (command) => {
    given(credentialDecider, active).when(command).thenRefuses('unknown_scope', 'there is no scope "users.write"');
  });
});

describe('revocation and a new application', () => {
  const liveScopes = [
    ...active,
    scopeRequested('addons.read'),
    scopeRequested('member-groups.read'),
    scopeApproved('member-groups.read'),
  ];

  it('revoking the credential revokes its pending and approved scopes', () => {
    expect(scopesOf([...liveScopes, revoked])).toEqual({ 'addons.read': 'revoked', 'member-groups.read': 'revoked' });
  });

  it('leaves a rejected scope rejected when the credential is revoked', () => {
    const history = [...active, scopeRequested('addons.read'), scopeRejected('addons.read'), revoked];
    expect(scopesOf(history)).toEqual({ 'addons.read': 'rejected' });
  });

  it('applying again after a revocation clears the scopes and the API id', () => {
    const state = fold(credentialDecider, [...liveScopes, revoked, applied]);
    expect(state).toEqual({
      status: 'pending',
      apiid: null,
      key_digest: null,
      scopes: {},
      expires_at: null,
      expiry: { set_at: null, reminded_days: null, expired: false },
      extension: null,
      keys_in_grace: [],
      leak_reports: [],
    });
  });

  it('after a new application and claim, the same scopes can be requested again under the new API id', () => {
    const history = [...liveScopes, revoked, applied, approved, claimed(NEW_APIID, NEW_KEY)];
    expect(fold(credentialDecider, history).apiid).toBe(NEW_APIID);
    given(credentialDecider, history).when(commands.RequestScopes).then(ALLOWED.RequestScopes);
  });

  it('an approval revoked before the claim cannot be claimed: the member applies again', () => {
    const history = [applied, approved, revoked];
    expect(statusOf(history)).toBe('revoked');
    given(credentialDecider, history)
      .when(commands.ClaimCredential)
      .thenRefuses('credential_not_approved', 'apply again');
    given(credentialDecider, history).when(commands.ApplyCredential).then(ALLOWED.ApplyCredential);
  });

  it('a rejected application can be applied for again, approved and claimed', () => {
    const history = [applied, rejected, applied, approved];
    expect(statusOf(history)).toBe('approved');
    given(credentialDecider, history).when(commands.ClaimCredential).then(ALLOWED.ClaimCredential);
  });

  it('rotating after a new claim rotates the new key, not the one from before the revocation', () => {
    const history = [...active, revoked, applied, approved, claimed(NEW_APIID, NEW_KEY)];
    const [rotated] = decide(history, {
      type: 'RotateKey',
      data: { member_id, key_digest: 'c'.repeat(64), grace_seconds: 0, now: NOW },
    });
    expect(rotated?.data).toMatchObject({ apiid: NEW_APIID, previous_key_digest: NEW_KEY, key_digest: 'c'.repeat(64) });
  });
});

describe('RotateKey', () => {
  const rotate = (grace_seconds: number, key_digest = NEW_KEY): CredentialCommand => ({
    type: 'RotateKey',
    data: { member_id, key_digest, grace_seconds, now: NOW },
  });

  it.each<[number, string | null]>([
    [0, null],
    [1, '2025-03-01T10:00:01.000Z'],
    [3600, '2025-03-01T11:00:00.000Z'],
    [MAX_GRACE_SECONDS, '2025-03-02T10:00:00.000Z'],
  ])('with grace_seconds %p keeps the previous key valid until %p', (grace, until) => {
    given(credentialDecider, active)
      .when(rotate(grace))
      .then([events.rotated(APIID, NEW_KEY, KEY, until)]);
  });

  it.each([-1, MAX_GRACE_SECONDS + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses grace_seconds %p',
    (grace) => {
      given(credentialDecider, active)
        .when(rotate(grace))
        .thenRefuses('invalid_grace_seconds', `grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`);
    },
  );

  describe('the keys of earlier rotations', () => {
    const minutesAfter = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
    const rotateAt = (minute: number, grace_seconds: number, key_digest: string): CredentialCommand => ({
      type: 'RotateKey',
      data: { member_id, key_digest, grace_seconds, now: minutesAfter(minute) },
    });
    /** The active credential rotated once a minute from NOW with these grace periods; rotation i issues key i. */
    const rotated = (graces: number[]): CredentialEvent[] =>
      graces.reduce<CredentialEvent[]>(
        (history, grace, i) => [...history, ...decide(history, rotateAt(i, grace, String(i).repeat(64)))],
        [...active],
      );
    const earlierAfter = (history: CredentialEvent[], command: CredentialCommand) =>
      (decide(history, command)[0]?.data as { earlier_keys: unknown }).earlier_keys;

    it('all stop with a rotation that gives no grace period, as the previous key does', () => {
      expect(earlierAfter(rotated([3600]), rotateAt(2, 0, 'c'.repeat(64)))).toEqual([]);
    });

    it('stay no longer than the previous key, and only the two most recent', () => {
      const history = rotated([3600, 3600, 3600]);
      expect(earlierAfter(history, rotateAt(3, 60, 'c'.repeat(64)))).toEqual([
        { digest: '1'.repeat(64), valid_until: minutesAfter(4) },
        { digest: '0'.repeat(64), valid_until: minutesAfter(4) },
      ]);
    });

    it('keep their own end when it comes sooner, and are dropped once it has passed', () => {
      const history = rotated([120]);
      expect(earlierAfter(history, rotateAt(1, 3600, 'c'.repeat(64)))).toEqual([
        { digest: KEY, valid_until: minutesAfter(2) },
      ]);
      expect(earlierAfter(history, rotateAt(2, 3600, 'c'.repeat(64)))).toEqual([]);
    });

    it('start again with each claim', () => {
      const history = [...rotated([3600]), revoked, applied, approved, claimed(NEW_APIID, NEW_KEY)];
      expect(earlierAfter(history, rotateAt(2, 3600, 'c'.repeat(64)))).toEqual([]);
    });
  });

  it('a second rotation names the key of the first as the previous one', () => {
    const firstRotation = decide(active, rotate(0));
    const [second] = decide([...active, ...firstRotation], rotate(0, 'c'.repeat(64)));
    expect(second?.data).toMatchObject({ apiid: APIID, previous_key_digest: NEW_KEY, key_digest: 'c'.repeat(64) });
    expect(statusOf([...active, ...firstRotation])).toBe('active');
  });
});

describe('credential stream', () => {
  it('is one stream per member', () => {
    expect(credentialStream(7)).toBe('credential-7');
  });
});

describe('expiry notices', () => {
  const expiring = (expires_at: string): CredentialEvent[] => [
    applied,
    events.approved(expires_at),
    events.claimed(APIID, KEY, expires_at),
  ];
  const note = (history: CredentialEvent[], now: string) =>
    credentialDecider.decide(
      { type: 'NoteExpiry', data: { member_id, now, reminder_days: [30, 7, 1] } },
      fold(credentialDecider, history),
    );

  it('reminds once per threshold reached, the nearest only, then tells the expiry once', () => {
    const history = expiring('2026-02-01T00:00:00.000Z');
    expect(note(history, '2025-12-01T00:00:00.000Z')).toEqual([]);
    const first = note(history, '2026-01-20T00:00:00.000Z');
    expect(first).toEqual([events.expiring('2026-02-01T00:00:00.000Z', 30)]);
    expect(note([...history, ...first], '2026-01-21T00:00:00.000Z')).toEqual([]);
    // Twelve hours left: past the 7 and 1 day thresholds at once, reminded once, of the nearer.
    const late = note([...history, ...first], '2026-01-31T12:00:00.000Z');
    expect(late).toEqual([events.expiring('2026-02-01T00:00:00.000Z', 1)]);
    const expired = note([...history, ...first, ...late], '2026-02-01T00:00:00.000Z');
    expect(expired).toEqual([events.expired('2026-02-01T00:00:00.000Z')]);
    expect(note([...history, ...first, ...late, ...expired], '2026-02-02T00:00:00.000Z')).toEqual([]);
  });

  it('reminds only of thresholds the key lived longer than, from when its expiry was set', () => {
    const recordedAt = (time: string, event: CredentialEvent) => ({ ...event, metadata: { time } });
    // Approved on 30 January for two days: no "7 days" nor "30 days" at the claim, one reminder a day before.
    const twoDays = [
      applied,
      recordedAt('2026-01-30T00:00:00.000Z', events.approved('2026-02-01T00:00:00.000Z')),
      events.claimed(APIID, KEY, '2026-02-01T00:00:00.000Z'),
    ] as CredentialEvent[];
    expect(note(twoDays, '2026-01-30T01:00:00.000Z')).toEqual([]);
    expect(note(twoDays, '2026-01-31T00:00:00.000Z')).toEqual([events.expiring('2026-02-01T00:00:00.000Z', 1)]);
    // Extended on 31 January to 10 February: the 7 days threshold counts again, the 30 days one does not.
    const extended = [
      ...twoDays,
      events.extensionRequested('2026-02-10T00:00:00.000Z', 'longer'),
      recordedAt('2026-01-31T00:00:00.000Z', events.extensionApproved('2026-02-10T00:00:00.000Z')),
    ] as CredentialEvent[];
    expect(note(extended, '2026-01-31T01:00:00.000Z')).toEqual([]);
    expect(note(extended, '2026-02-03T00:00:00.000Z')).toEqual([events.expiring('2026-02-10T00:00:00.000Z', 7)]);
  });
});

describe('extensions', () => {
  const expiring: CredentialEvent[] = [
    applied,
    events.approved('2026-02-01T00:00:00.000Z'),
    events.claimed(APIID, KEY, '2026-02-01T00:00:00.000Z'),
  ];
  const decide = (history: CredentialEvent[], command: CredentialCommand) =>
    credentialDecider.decide(command, fold(credentialDecider, history));
  const ask = (expires_at: string): CredentialCommand => ({
    type: 'RequestExtension',
    data: { member_id, expires_at, reason: ' project runs longer ', now: '2026-01-15T00:00:00.000Z' },
  });

  it('a later expiry is requested, then approved: the key expires then', () => {
    const requested = decide(expiring, ask('2026-06-01T00:00:00.000Z'));
    expect(requested).toEqual([events.extensionRequested('2026-06-01T00:00:00.000Z', 'project runs longer')]);
    expect(() => decide([...expiring, ...requested], ask('2026-07-01T00:00:00.000Z'))).toThrow(
      expect.objectContaining({ error: 'extension_already_requested' }),
    );
    const approved = decide([...expiring, ...requested], commands.ApproveExtension);
    expect(approved).toEqual([events.extensionApproved('2026-06-01T00:00:00.000Z')]);
    expect(fold(credentialDecider, [...expiring, ...requested, ...approved]).expires_at).toBe(
      '2026-06-01T00:00:00.000Z',
    );
  });

  it('leaves the request of a credential revoked since undecided: its key is refused whatever its expiry', () => {
    const requested = decide(expiring, ask('2026-06-01T00:00:00.000Z'));
    const revoked = events.revoked('leaked key');
    given(credentialDecider, [...expiring, ...requested, revoked])
      .when(commands.ApproveExtension)
      .thenRefuses('credential_not_active');
    given(credentialDecider, [...expiring, ...requested, revoked])
      .when(commands.RejectExtension)
      .thenRefuses('credential_not_active');
  });

  it('refuses an earlier expiry, and a rejection needs its reason', () => {
    expect(() => decide(expiring, ask('2026-01-20T00:00:00.000Z'))).toThrow(
      expect.objectContaining({ error: 'extension_not_later' }),
    );
    const requested = decide(expiring, ask('2026-06-01T00:00:00.000Z'));
    expect(() =>
      decide([...expiring, ...requested], { type: 'RejectExtension', data: { member_id, reason: ' ' } }),
    ).toThrow(expect.objectContaining({ error: 'invalid_reason' }));
    expect(decide([...expiring, ...requested], commands.RejectExtension)).toEqual([events.extensionRejected('no')]);
  });
});

describe('a credential past its expiry', () => {
  const EXPIRES = '2026-02-01T00:00:00.000Z';
  const AFTER = '2026-02-01T00:00:01.000Z';
  const BEFORE = '2026-01-31T23:59:59.000Z';
  const approvedUntil: CredentialEvent[] = [applied, events.approved(EXPIRES)];
  const activeUntil: CredentialEvent[] = [...approvedUntil, events.claimed(APIID, KEY, EXPIRES)];
  const at = <T extends CredentialCommand>(command: T, now: string): T => ({
    ...command,
    data: { ...command.data, now },
  });

  it('cannot be claimed once the approval ran out, and its member may apply again', () => {
    given(credentialDecider, approvedUntil)
      .when(at(commands.ClaimCredential, AFTER))
      .thenRefuses('credential_expired', `expired at ${EXPIRES}: the approval ran out before the claim, apply again`);
    given(credentialDecider, approvedUntil)
      .when(at(commands.ClaimCredential, BEFORE))
      .then([events.claimed(NEW_APIID, NEW_KEY, EXPIRES)]);
    given(credentialDecider, approvedUntil).when(at(commands.ApplyCredential, AFTER)).then([applied]);
    given(credentialDecider, approvedUntil)
      .when(at(commands.ApplyCredential, BEFORE))
      .thenRefuses('credential_already_applied');
  });

  it('issues no new key once active and expired: the member extends it or applies again', () => {
    given(credentialDecider, activeUntil)
      .when(at(commands.RotateKey, AFTER))
      .thenRefuses('credential_expired', 'ask for an extension, or apply again');
    given(credentialDecider, activeUntil).when(at(commands.ApplyCredential, AFTER)).then([applied]);
    given(credentialDecider, activeUntil)
      .when(at(commands.ApplyCredential, BEFORE))
      .thenRefuses('credential_already_applied');
    const extension = {
      type: 'RequestExtension' as const,
      data: { member_id, expires_at: '2026-06-01T00:00:00.000Z', reason: 'more time', now: AFTER },
    };
    given(credentialDecider, activeUntil)
      .when(extension)
      .then([events.extensionRequested('2026-06-01T00:00:00.000Z', 'more time')]);
  });

  it('a new application after the expiry starts over: no key, no scopes, no expiry', () => {
    const history = [...activeUntil, scopeRequested('addons.read'), scopeApproved('addons.read'), applied];
    expect(fold(credentialDecider, history)).toMatchObject({
      status: 'pending',
      apiid: null,
      key_digest: null,
      scopes: {},
      expires_at: null,
    });
  });
});
