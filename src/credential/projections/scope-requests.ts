import { SCOPE_NAMES } from '../scopes';
import { ScopeRequestDocument, ScopeView } from '../views';
import { Projection } from '../../shared/projections/projection';
import { CredentialEvent } from '../events';
import { SCOPE_CHANGING_EVENTS, scopeNamed } from '../scope-lifecycle';
import { evolveScope, withScopeFields } from './scope-view';

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

const toView = (doc: ScopeRequestDocument): ScopeView => withScopeFields({ name: doc.scope }, doc);

const toDocument = (member_id: number, view: ScopeView): ScopeRequestDocument =>
  withScopeFields({ member_id, scope: view.name }, view);
