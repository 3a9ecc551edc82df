import { CredentialEvent } from '../events';
import { Projection } from '../../shared/projections/projection';

/** One API id as it was claimed: kept after the member applies again and claims another. */
export interface ApiIdDocument {
  apiid: string;
  member_id: number;
  claimed_at: string;
}

/**
 * Every API id ever claimed, by the id: an auditor traces an id found in a partner's logs to its
 * member, whose credential may since have moved on to another id. `api_keys` holds only the
 * current one.
 */
export const apiIdsProjection: Projection<ApiIdDocument, CredentialEvent> = {
  name: 'api_ids',
  version: 1,
  collection: { name: 'api_ids', indexes: [] },
  handles: ['CredentialClaimed'],
  documentIds: (event) => (event.type === 'CredentialClaimed' ? [event.data.apiid] : []),

  evolve(doc, event) {
    if (event.type !== 'CredentialClaimed') return doc;
    return { apiid: event.data.apiid, member_id: event.data.member_id, claimed_at: event.metadata.time };
  },
};
