import { credentialDecider, CredentialCommand, CredentialStatus } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
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
};

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
