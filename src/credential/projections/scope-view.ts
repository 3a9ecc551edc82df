import { CredentialEvent } from '../events';
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
      return view && changed(view, { status, reviewed_at: time });
    case 'ScopeRejected':
      return view && changed(view, { status, reviewed_at: time, reject_reason: event.data.reason });
    case 'ScopeRevoked':
    case 'CredentialRevoked':
      return view && changed(view, { status, revoked_at: time, revoke_reason: event.data.reason });
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

/**
 * The view with some fields changed, copied field by field: V8 builds this fixed-shape literal
 * several times as fast as a spread, and a rebuild changes a scope for most of its events.
 */
function changed(view: ScopeView, changes: Partial<ScopeView>): ScopeView {
  const copy: ScopeView = {
    name: view.name,
    status: view.status,
    reason: view.reason,
    requested_at: view.requested_at,
    reviewed_at: view.reviewed_at,
    reject_reason: view.reject_reason,
    revoked_at: view.revoked_at,
    revoke_reason: view.revoke_reason,
  };
  return Object.assign(copy, changes);
}
