import { CredentialEvent, ScopeStatus } from '../decider';
import { RecordedEvent } from '../../stores/ports';

/** One scope of one member, as the dashboard and the administrators' queue show it. */
export interface ScopeView {
  name: string;
  status: ScopeStatus;
  /** The member's purpose of use, given with the request. */
  reason: string;
  requested_at: string;
  reviewed_at: string | null;
  reject_reason: string | null;
  revoked_at: string | null;
  revoke_reason: string | null;
}

/** Credential events as projections read them: typed data, plus when it happened. */
export type Recorded = CredentialEvent & { metadata: RecordedEvent['metadata']; position: string };

export function asCredentialEvent(event: RecordedEvent): Recorded {
  return event as unknown as Recorded;
}

export const SCOPE_EVENTS = new Set(['ScopeRequested', 'ScopeApproved', 'ScopeRejected', 'ScopeRevoked']);

/**
 * A scope after one credential event. A new application clears it (no scope carries over); a
 * revoked credential takes every live scope down with it.
 */
export function evolveScope(view: ScopeView | null, event: Recorded): ScopeView | null {
  const time = event.metadata.time;
  switch (event.type) {
    case 'ScopeRequested':
      return {
        name: event.data.scope,
        status: 'pending',
        reason: event.data.reason,
        requested_at: time,
        reviewed_at: null,
        reject_reason: null,
        revoked_at: null,
        revoke_reason: null,
      };
    case 'ScopeApproved':
      return view && { ...view, status: 'approved', reviewed_at: time };
    case 'ScopeRejected':
      return view && { ...view, status: 'rejected', reviewed_at: time, reject_reason: event.data.reason };
    case 'ScopeRevoked':
      return view && { ...view, status: 'revoked', revoked_at: time, revoke_reason: event.data.reason };
    case 'CredentialRevoked':
      if (!view || (view.status !== 'pending' && view.status !== 'approved')) return view;
      return { ...view, status: 'revoked', revoked_at: time, revoke_reason: event.data.reason };
    case 'CredentialApplied':
      return null;
    default:
      return view;
  }
}
