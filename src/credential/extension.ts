import { DomainError } from '../shared/domain/decider';
import { assertReason } from '../shared/domain/reason';
import { hasExpiredAt } from './expiry';

/**
 * A member's request to move their key's expiry later, decided by an administrator with a
 * reason, as with scopes: requested once at a time, on an active credential that expires.
 */
export interface ExtensionState {
  status: string;
  expires_at: string | null;
  extension: { expires_at: string } | null;
}

type ExtensionEvent =
  | { type: 'ExtensionRequested'; data: { member_id: number; expires_at: string; reason: string } }
  | { type: 'ExtensionApproved'; data: { member_id: number; expires_at: string } }
  | { type: 'ExtensionRejected'; data: { member_id: number; reason: string } };

export function request(
  state: ExtensionState,
  member_id: number,
  expires_at: string,
  reason: string,
  now: string,
): ExtensionEvent[] {
  if (state.status !== 'active')
    throw new DomainError(
      'credential_not_active',
      'only an active credential can be extended: claim it first, or apply again',
    );
  if (state.expires_at === null)
    throw new DomainError('credential_never_expires', 'this key never expires: there is nothing to extend');
  if (state.extension)
    throw new DomainError(
      'extension_already_requested',
      `an extension to ${state.extension.expires_at} is waiting for an administrator`,
    );
  assertReason(reason);
  if (hasExpiredAt(expires_at, now) || Date.parse(expires_at) <= Date.parse(state.expires_at)) {
    throw new DomainError(
      'extension_not_later',
      `ask for an expiry later than the current one, ${state.expires_at}, and in the future`,
    );
  }
  return [{ type: 'ExtensionRequested', data: { member_id, expires_at, reason: reason.trim() } }];
}

function requireExtension(state: ExtensionState): { expires_at: string } {
  if (!state.extension) throw new DomainError('extension_not_requested', 'no extension is waiting for a decision');
  return state.extension;
}

export function approve(state: ExtensionState, member_id: number): ExtensionEvent[] {
  return [{ type: 'ExtensionApproved', data: { member_id, expires_at: requireExtension(state).expires_at } }];
}

export function reject(state: ExtensionState, member_id: number, reason: string): ExtensionEvent[] {
  requireExtension(state);
  assertReason(reason);
  return [{ type: 'ExtensionRejected', data: { member_id, reason: reason.trim() } }];
}
