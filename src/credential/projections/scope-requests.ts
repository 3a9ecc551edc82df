import { SCOPE_NAMES } from '../scopes';
import { Projection } from '../../shared/projections/projection';
import { asCredentialEvent, evolveScope, SCOPE_EVENTS, ScopeView } from './scope-view';

export type ScopeRequestDocument = { member_id: number; scope: string } & Omit<ScopeView, 'name'>;

/**
 * Scope requests one document each, for the administrators' queue filtered by status. A new
 * application or a revocation touches every scope of the member, so those events map to one
 * document per registered scope.
 */
export const scopeRequestsProjection: Projection<ScopeRequestDocument> = {
  name: 'scope_requests',
  version: 1,
  collection: { name: 'scope_requests', indexes: ['status', 'member_id'] },

  documentIds(event) {
    const member = String(event.data.member_id);
    if (SCOPE_EVENTS.has(event.type)) return [`${member}:${String(event.data.scope)}`];
    if (event.type === 'CredentialApplied' || event.type === 'CredentialRevoked') {
      return SCOPE_NAMES.map((scope) => `${member}:${scope}`);
    }
    return [];
  },

  evolve(doc, recorded) {
    const event = asCredentialEvent(recorded);
    const view = evolveScope(doc && toView(doc), event);
    return view && toDocument(event.data.member_id, view);
  },
};

const toView = ({ member_id: _member, scope, ...fields }: ScopeRequestDocument): ScopeView => ({ name: scope, ...fields });

const toDocument = (member_id: number, { name, ...fields }: ScopeView): ScopeRequestDocument => ({ member_id, scope: name, ...fields });
