import { SCOPE_NAMES } from '../scopes';
import { ScopeRequestDocument, ScopeView } from '../views';
import { Projection } from '../../shared/projections/projection';
import { CredentialEvent } from '../events';
import { SCOPE_CHANGING_EVENTS, scopeNamed } from '../scope-lifecycle';
import { evolveScope } from './scope-view';

/**
 * Scope requests one document each, for the administrators' queue filtered by status. A new
 * application or a revocation touches every scope of the member, so those events map to one
 * document per registered scope.
 */
export const scopeRequestsProjection: Projection<ScopeRequestDocument, CredentialEvent> = {
  name: 'scope_requests',
  version: 1,
  collection: { name: 'scope_requests', indexes: ['status', 'member_id'] },

  handles: SCOPE_CHANGING_EVENTS,
  documentIds(event) {
    const scope = scopeNamed(event);
    const member = event.data.member_id;
    return scope === undefined ? SCOPE_NAMES.map((name) => `${member}:${name}`) : [`${member}:${scope}`];
  },

  evolve(doc, event) {
    const before = doc && toView(doc);
    const view = evolveScope(before, event);
    // Left as it was (a revocation passing a scope already rejected, say): the document itself, not a copy.
    if (view === before) return doc;
    return view && toDocument(event.data.member_id, view);
  },
};

// Field by field rather than by rest and spread, the slower way to copy in V8; a rebuild copies
// about a million times. A required field added to the views is a type error here until copied.
const toView = (doc: ScopeRequestDocument): ScopeView => ({
  name: doc.scope,
  status: doc.status,
  reason: doc.reason,
  requested_at: doc.requested_at,
  reviewed_at: doc.reviewed_at,
  reject_reason: doc.reject_reason,
  revoked_at: doc.revoked_at,
  revoke_reason: doc.revoke_reason,
});

const toDocument = (member_id: number, view: ScopeView): ScopeRequestDocument => ({
  member_id,
  scope: view.name,
  status: view.status,
  reason: view.reason,
  requested_at: view.requested_at,
  reviewed_at: view.reviewed_at,
  reject_reason: view.reject_reason,
  revoked_at: view.revoked_at,
  revoke_reason: view.revoke_reason,
});
