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
  if (event.type === 'ScopeRequested') return requested(name, status, event.data.reason, event.metadata.time);
  return view && reviewed(view, status, event);
}

function requested(name: string, status: ScopeView['status'], reason: string, time: string): ScopeView {
  return {
    name,
    status,
    reason,
    requested_at: time,
    reviewed_at: null,
    reject_reason: null,
    revoked_at: null,
    revoke_reason: null,
  };
}

/** A requested scope after an administrator's decision on it, or on its whole credential. */
function reviewed(view: ScopeView, status: ScopeView['status'], event: Recorded<CredentialEvent>): ScopeView {
  const time = event.metadata.time;
  switch (event.type) {
    case 'ScopeApproved':
      return changed(view, { status, reviewed_at: time });
    case 'ScopeRejected':
      return changed(view, { status, reviewed_at: time, reject_reason: event.data.reason });
    case 'ScopeRevoked':
    case 'CredentialRevoked':
      return changed(view, { status, revoked_at: time, revoke_reason: event.data.reason });
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

/** What a scope's view and its stored document hold alike: all but the scope's name. */
export type ScopeFields = Omit<ScopeView, 'name'>;

/**
 * `target` given the scope fields of `source`, one assignment each: a rebuild copies a scope for
 * most of its events, and these stores on a fresh literal cost a few nanoseconds where a rest
 * and spread costs about 150. The views and the documents of the scope requests share it, so a
 * field added to ScopeFields is copied here once, for both.
 */
export function withScopeFields<T extends object>(target: T, source: ScopeFields): T & ScopeFields {
  const copy = target as T & ScopeFields;
  copy.status = source.status;
  copy.reason = source.reason;
  copy.requested_at = source.requested_at;
  copy.reviewed_at = source.reviewed_at;
  copy.reject_reason = source.reject_reason;
  copy.revoked_at = source.revoked_at;
  copy.revoke_reason = source.revoke_reason;
  return copy;
}

/** The view with some fields changed. */
function changed(view: ScopeView, changes: Partial<ScopeView>): ScopeView {
  return Object.assign(withScopeFields({ name: view.name }, view), changes);
}
