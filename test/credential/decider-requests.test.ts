import { credentialDecider, CredentialCommand } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
import { fold } from '../../src/shared/domain/decider';
import { given } from '../support/decider-spec';
import {
  member_id,
  NEW_APIID,
  NEW_KEY,
  NOW,
  events,
  applied,
  approved,
  rejected,
  claimed,
  revoked,
  scopeRequested,
  scopeApproved,
  scopeRejected,
  scopeRevoked,
  active,
  commands,
  ALLOWED,
  statusOf,
  scopesOf,
  decide,
} from './decider-support';

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
