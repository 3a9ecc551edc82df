import { CredentialStatus } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
import { ScopeStatus } from '../../src/credential/scope-lifecycle';
import {
  member_id,
  events,
  applied,
  approved,
  rejected,
  revoked,
  scopeRequested,
  scopeApproved,
  scopeRejected,
  scopeRevoked,
  active,
  CommandType,
  CommandOf,
  commands,
  ALLOWED,
  Outcome,
  leaked,
  expectOutcome,
  statusOf,
} from './decider-support';

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

/** No credential in force (none yet, rejected, revoked): the member may apply, and nothing else is decided. */
const APPLY_AGAIN = {
  ApplyCredential: ALLOWED.ApplyCredential,
  ApproveCredential: 'credential_not_pending',
  RejectCredential: 'credential_not_pending',
  ClaimCredential: 'credential_not_approved',
  ...NOT_ACTIVE,
} as const;

/** Every status against every command: the credential state machine (src/credential/decider.ts). */
const MACHINE: Record<CredentialStatus, { history: CredentialEvent[]; outcomes: { [T in CommandType]: Outcome } }> = {
  none: {
    history: [],
    outcomes: APPLY_AGAIN,
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
    outcomes: APPLY_AGAIN,
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
    outcomes: APPLY_AGAIN,
  },
};

type ScopeCase = 'not requested' | ScopeStatus;
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
