import { CredentialEvent } from '../decider';
import { ScopeView } from '../views';
import { changesScopes, scopeNamed, scopeStatusAfter } from '../scope-lifecycle';
import { Recorded } from '../../shared/domain/events';

/**
 * A scope after one credential event: its status from the scope lifecycle (scopeStatusAfter),
 * with when and why. Null when the scope is not requested, or cleared by a new application.
 */
export function evolveScope(view: ScopeView | null, event: Recorded<CredentialEvent>): ScopeView | null {
  const name = view?.name ?? scopeNamed(event);
  if (name === undefined) return view;
  const status = scopeStatusAfter(name, view?.status, event);
  if (status === undefined) return null;
  if (status === view?.status) return view;
  const time = event.metadata.time;
  switch (event.type) {
    case 'ScopeRequested':
      return {
        name,
        status,
        reason: event.data.reason,
        requested_at: time,
        reviewed_at: null,
        reject_reason: null,
        revoked_at: null,
        revoke_reason: null,
      };
    case 'ScopeApproved':
      return view && { ...view, status, reviewed_at: time };
    case 'ScopeRejected':
      return view && { ...view, status, reviewed_at: time, reject_reason: event.data.reason };
    case 'ScopeRevoked':
    case 'CredentialRevoked':
      return view && { ...view, status, revoked_at: time, revoke_reason: event.data.reason };
    default:
      return view;
  }
}

/** A member's scopes after one credential event; a scope requested again moves to the end. */
export function evolveScopes(views: ScopeView[], event: Recorded<CredentialEvent>): ScopeView[] {
  if (!changesScopes(event)) return views;
  const after = views.map((view) => evolveScope(view, event)).filter((view) => view !== null);
  if (event.type !== 'ScopeRequested') return after;
  return [...after.filter((view) => view.name !== event.data.scope), evolveScope(null, event)!];
}
