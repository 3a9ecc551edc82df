import { Decider, decideByType, DomainError } from '../shared/domain/decider';
import { fieldError } from '../shared/domain/field-error';
import { assertReason } from '../shared/domain/reason';
import { isScope } from './scopes';
import { CredentialEvent } from './events';
import { earlierKeysAfterRotation, graceSecondsSchema, MAX_GRACE_SECONDS, previousKeyValidUntil } from './grace-period';
import { hasExpiredAt, isExpiredAt } from './expiry';
import * as extension from './extension';
import { expiryNoticesDue } from './expiry-notices';
import { CredentialState, CredentialStatus, evolve, initialState } from './state';
import { ReportKeyLeak, reportLeak } from './leaks/decide';

/**
 * The credential's commands, each decided by its own function against the state its stream folds
 * to (./state.ts): a refusal names what the member or administrator can do instead.
 */
export { credentialStream, CREDENTIAL_STATUSES, type CredentialState, type CredentialStatus } from './state';

/** What an application says of who asks and why (each null when not said). */
export interface Applicant {
  purpose: string | null;
  company: string | null;
  website: string | null;
}

/** The approval rule an approval comes from, when no administrator decided it. */
export interface ApprovalRuleRef {
  id: string;
  name: string;
}

type Cmd<Type extends string, Data = object> = { type: Type; data: { member_id: number } & Data };

export type CredentialCommand =
  | Cmd<'ApplyCredential', { username: string; now: string } & Partial<Applicant>>
  | Cmd<'ApproveCredential', { expires_at: string | null; now: string; rule?: ApprovalRuleRef | null }>
  | Cmd<'RejectCredential', { reason: string }>
  | Cmd<'ClaimCredential', { apiid: string; key_digest: string; now: string }>
  | Cmd<'RotateKey', { key_digest: string; grace_seconds: number; now: string }>
  | Cmd<'RevokeCredential', { reason: string }>
  | Cmd<'RequestScopes', { scopes: string[]; reason: string }>
  | Cmd<'ApproveScope', { scope: string; rule?: ApprovalRuleRef | null }>
  | Cmd<'RejectScope', { scope: string; reason: string }>
  | Cmd<'RevokeScope', { scope: string; reason: string }>
  | Cmd<'NoteExpiry', { now: string; reminder_days: number[] }>
  | Cmd<'RequestExtension', { expires_at: string; reason: string; now: string }>
  | Cmd<'ApproveExtension'>
  | Cmd<'RejectExtension', { reason: string }>
  | ReportKeyLeak;

/** What a member can do next about a credential in each status, where there is something to do. */
export type NextStep = 'apply' | 'claim' | 'list_scopes';

const NEXT_STEP: Partial<Record<CredentialStatus, NextStep>> = { none: 'apply', approved: 'claim' };

const WHAT_TO_DO: Record<CredentialStatus, string> = {
  none: 'apply first',
  pending: 'the application is waiting for an administrator',
  approved: 'the application is approved: claim the credential',
  rejected: 'the application was rejected: apply again',
  active: 'the credential is active',
  revoked: 'the credential was revoked: apply again',
};

function refuse(error: string, state: CredentialState, action: string): never {
  throw new DomainError(
    error,
    `cannot ${action} a credential whose status is ${state.status}: ${WHAT_TO_DO[state.status]}`,
    NEXT_STEP[state.status],
  );
}

function requireStatus(state: CredentialState, wanted: CredentialStatus, error: string, action: string): void {
  if (state.status !== wanted) refuse(error, state, action);
}

function assertKnownScope(scope: string): void {
  if (!isScope(scope)) throw fieldError('unknown_scope', 'scopes', `there is no scope "${scope}"`, 'list_scopes');
}

type Command<Type extends CredentialCommand['type']> = Extract<CredentialCommand, { type: Type }>;

function apply({ data }: Command<'ApplyCredential'>, state: CredentialState): CredentialEvent[] {
  // An approval or a key past its expiry is worth nothing, so its member may start again.
  if (!['none', 'rejected', 'revoked'].includes(state.status) && !isExpiredAt(state, data.now))
    refuse('credential_already_applied', state, 'apply for');
  const { member_id, username, purpose = null, company = null, website = null } = data;
  return [{ type: 'CredentialApplied', data: { member_id, username, purpose, company, website } }];
}

function approve({ data }: Command<'ApproveCredential'>, state: CredentialState): CredentialEvent[] {
  requireStatus(state, 'pending', 'credential_not_pending', 'approve');
  if (hasExpiredAt(data.expires_at, data.now)) {
    throw new DomainError('expiry_in_past', 'the key would expire before it is claimed: give an expiry in the future');
  }
  return [
    {
      type: 'CredentialApproved',
      data: { member_id: data.member_id, expires_at: data.expires_at, rule: data.rule ?? null },
    },
  ];
}

function reject({ data }: Command<'RejectCredential'>, state: CredentialState): CredentialEvent[] {
  requireStatus(state, 'pending', 'credential_not_pending', 'reject');
  assertReason(data.reason);
  return [{ type: 'CredentialRejected', data: { member_id: data.member_id, reason: data.reason.trim() } }];
}

/**
 * An approved or active credential past its expiry: no key it could issue would be accepted, so
 * it cannot be claimed or rotated, and its member may apply again (or, when active, extend it).
 */
function refuseExpired(state: CredentialState, action: string, instead: string): never {
  throw new DomainError(
    'credential_expired',
    `cannot ${action} a credential that expired at ${state.expires_at}: ${instead}`,
    'apply',
  );
}

function claim({ data }: Command<'ClaimCredential'>, state: CredentialState): CredentialEvent[] {
  if (state.status === 'active') refuse('credential_already_claimed', state, 'claim');
  requireStatus(state, 'approved', 'credential_not_approved', 'claim');
  if (isExpiredAt(state, data.now)) refuseExpired(state, 'claim', 'the approval ran out before the claim, apply again');
  return [
    {
      type: 'CredentialClaimed',
      data: { member_id: data.member_id, apiid: data.apiid, key_digest: data.key_digest, expires_at: state.expires_at },
    },
  ];
}

function rotate({ data }: Command<'RotateKey'>, state: CredentialState): CredentialEvent[] {
  requireStatus(state, 'active', 'credential_not_active', 'rotate the key of');
  const { member_id, key_digest, grace_seconds, now } = data;
  if (isExpiredAt(state, now)) refuseExpired(state, 'rotate the key of', 'ask for an extension, or apply again');
  if (!graceSecondsSchema.safeParse(grace_seconds).success) {
    throw fieldError(
      'invalid_grace_seconds',
      'grace_seconds',
      `grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`,
    );
  }
  const until = previousKeyValidUntil(now, grace_seconds);
  return [
    {
      type: 'KeyRotated',
      data: {
        member_id,
        apiid: state.apiid!,
        key_digest,
        previous_key_digest: state.key_digest!,
        previous_key_valid_until: until,
        earlier_keys: earlierKeysAfterRotation(state.keys_in_grace, now, until),
      },
    },
  ];
}

function revoke({ data }: Command<'RevokeCredential'>, state: CredentialState): CredentialEvent[] {
  // An approval given by mistake is withdrawn by revoking before the claim, which then fails.
  if (state.status !== 'approved') requireStatus(state, 'active', 'credential_not_active', 'revoke');
  assertReason(data.reason);
  return [{ type: 'CredentialRevoked', data: { member_id: data.member_id, reason: data.reason.trim() } }];
}

function requestScopes({ data }: Command<'RequestScopes'>, state: CredentialState): CredentialEvent[] {
  const { member_id, scopes, reason } = data;
  requireStatus(state, 'active', 'credential_not_active', 'request scopes for');
  assertReason(reason);
  if (scopes.length === 0) throw fieldError('no_scopes', 'scopes', 'name at least one scope');
  const seen = new Set<string>();
  for (const scope of scopes) {
    assertKnownScope(scope);
    if (seen.has(scope)) throw fieldError('duplicate_scope', 'scopes', `the scope "${scope}" is named twice`);
    seen.add(scope);
    const status = state.scopes[scope];
    if (status === 'pending' || status === 'approved') {
      throw new DomainError('scope_already_requested', `the scope "${scope}" is already ${status}`);
    }
  }
  return scopes.map((scope) => ({ type: 'ScopeRequested', data: { member_id, scope, reason: reason.trim() } }));
}

/** A scope an administrator decides on: known, on an active credential, and in the status the decision needs. */
function requireScope(state: CredentialState, scope: string, wanted: 'pending' | 'approved'): void {
  assertKnownScope(scope);
  requireStatus(state, 'active', 'credential_not_active', 'decide on a scope of');
  const status = state.scopes[scope];
  if (status === wanted) return;
  if (wanted === 'approved') {
    throw new DomainError(
      'scope_not_approved',
      `the scope "${scope}" is ${status ?? 'not requested'}: only an approved scope can be revoked`,
    );
  }
  throw new DomainError(
    'scope_not_pending',
    `the scope "${scope}" is ${status ?? 'not requested'}: only a pending request can be decided`,
  );
}

function approveScope(
  { data: { member_id, scope, rule = null } }: Command<'ApproveScope'>,
  state: CredentialState,
): CredentialEvent[] {
  requireScope(state, scope, 'pending');
  return [{ type: 'ScopeApproved', data: { member_id, scope, rule } }];
}

function rejectScope(
  { data: { member_id, scope, reason } }: Command<'RejectScope'>,
  state: CredentialState,
): CredentialEvent[] {
  requireScope(state, scope, 'pending');
  assertReason(reason);
  return [{ type: 'ScopeRejected', data: { member_id, scope, reason: reason.trim() } }];
}

function revokeScope(
  { data: { member_id, scope, reason } }: Command<'RevokeScope'>,
  state: CredentialState,
): CredentialEvent[] {
  requireScope(state, scope, 'approved');
  assertReason(reason);
  return [{ type: 'ScopeRevoked', data: { member_id, scope, reason: reason.trim() } }];
}

function noteExpiry({ data }: Command<'NoteExpiry'>, state: CredentialState): CredentialEvent[] {
  if (state.status !== 'active' || state.expires_at === null) return [];
  return expiryNoticesDue(data.member_id, state.expires_at, state.expiry, data.now, data.reminder_days);
}

function requestExtension({ data }: Command<'RequestExtension'>, state: CredentialState): CredentialEvent[] {
  return extension.request(state, data.member_id, data.expires_at, data.reason, data.now);
}

// A request left by a credential revoked since stays as it was: its key is refused whatever its expiry.
function approveExtension({ data }: Command<'ApproveExtension'>, state: CredentialState): CredentialEvent[] {
  requireStatus(state, 'active', 'credential_not_active', 'decide on the extension of');
  return extension.approve(state, data.member_id);
}

function rejectExtension({ data }: Command<'RejectExtension'>, state: CredentialState): CredentialEvent[] {
  requireStatus(state, 'active', 'credential_not_active', 'decide on the extension of');
  return extension.reject(state, data.member_id, data.reason);
}

const decide = decideByType<CredentialCommand, CredentialEvent, CredentialState>({
  ApplyCredential: apply,
  ApproveCredential: approve,
  RejectCredential: reject,
  ClaimCredential: claim,
  RotateKey: rotate,
  RevokeCredential: revoke,
  RequestScopes: requestScopes,
  ApproveScope: approveScope,
  RejectScope: rejectScope,
  RevokeScope: revokeScope,
  NoteExpiry: noteExpiry,
  RequestExtension: requestExtension,
  ApproveExtension: approveExtension,
  RejectExtension: rejectExtension,
  ReportKeyLeak: reportLeak,
});

export const credentialDecider: Decider<CredentialCommand, CredentialEvent, CredentialState> = {
  initialState,
  evolve,
  decide,
};
