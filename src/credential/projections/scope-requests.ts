import { SCOPE_NAMES } from '../scopes';
import { ScopeRequestDocument, ScopeView } from '../views';
import { Projection } from '../../shared/projections/projection';
import { CredentialEvent } from '../decider';
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
    const scopes = [scopeNamed(event) ?? SCOPE_NAMES].flat();
    return scopes.map((scope) => `${event.data.member_id}:${scope}`);
  },

  evolve(doc, event) {
    const view = evolveScope(doc && toView(doc), event);
    return view && toDocument(event.data.member_id, view);
  },
};

const toView = ({ member_id: _member, scope, ...fields }: ScopeRequestDocument): ScopeView => ({ name: scope, ...fields });

const toDocument = (member_id: number, { name, ...fields }: ScopeView): ScopeRequestDocument => ({ member_id, scope: name, ...fields });
