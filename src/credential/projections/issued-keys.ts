import { CredentialEvent } from '../events';
import { Projection } from '../../shared/projections/projection';

/** One key as it was issued, by its digest: what a leak report is traced to. */
export interface IssuedKeyDocument {
  member_id: number;
  apiid: string;
}

/**
 * Every key ever issued (claimed or rotated in), by its SHA-256 digest: a key found in public
 * names no API id, and may since have been rotated away or outlived its credential. The digest is
 * all the service keeps of a key, and all a lookup needs.
 */
export const issuedKeysProjection: Projection<IssuedKeyDocument, CredentialEvent> = {
  name: 'issued_keys',
  version: 1,
  collection: { name: 'issued_keys', indexes: [] },
  handles: ['CredentialClaimed', 'KeyRotated'],
  documentIds: (event) =>
    event.type === 'CredentialClaimed' || event.type === 'KeyRotated' ? [event.data.key_digest] : [],

  evolve(doc, event) {
    if (event.type !== 'CredentialClaimed' && event.type !== 'KeyRotated') return doc;
    return { member_id: event.data.member_id, apiid: event.data.apiid };
  },
};
