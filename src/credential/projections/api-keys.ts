import { Projection } from '../../shared/projections/projection';
import { asCredentialEvent } from './scope-view';

export interface AcceptedKey {
  /** SHA-256 of the key, hex. */
  digest: string;
  /** When a rotated-away key stops being accepted; null for the current key. */
  valid_until: string | null;
}

/** What the open API checks a partner call against: no clear key, ever. */
export interface ApiKeyDocument {
  member_id: number;
  apiid: string;
  revoked: boolean;
  keys: AcceptedKey[];
  /** Scopes approved and not revoked. */
  scopes: string[];
}

const TYPES = new Set(['CredentialApplied', 'CredentialClaimed', 'KeyRotated', 'CredentialRevoked', 'ScopeApproved', 'ScopeRevoked']);

/** Claimed credentials by member, found by API id: the source of every instance's in-memory key ring. */
export const apiKeysProjection: Projection<ApiKeyDocument> = {
  name: 'api_keys',
  version: 1,
  collection: { name: 'api_keys', indexes: ['apiid'] },

  documentIds: (event) => (event.stream.startsWith('credential-') && TYPES.has(event.type) ? [String(event.data.member_id)] : []),

  evolve(doc, recorded) {
    const event = asCredentialEvent(recorded);
    switch (event.type) {
      case 'CredentialClaimed':
        return {
          member_id: event.data.member_id,
          apiid: event.data.apiid,
          revoked: false,
          keys: [{ digest: event.data.key_digest, valid_until: null }],
          scopes: [],
        };
      case 'CredentialApplied':
        return null;
      default:
        if (!doc) return null;
    }
    switch (event.type) {
      case 'KeyRotated': {
        const time = event.metadata.time;
        // Keys still inside an earlier grace period stay until it ends.
        const stillValid = doc.keys.filter((k) => k.valid_until !== null && k.valid_until > time);
        const previous = event.data.previous_key_valid_until
          ? [{ digest: event.data.previous_key_digest, valid_until: event.data.previous_key_valid_until }]
          : [];
        return { ...doc, keys: [{ digest: event.data.key_digest, valid_until: null }, ...previous, ...stillValid] };
      }
      case 'CredentialRevoked':
        return { ...doc, revoked: true, scopes: [] };
      case 'ScopeApproved':
        return { ...doc, scopes: [...doc.scopes.filter((s) => s !== event.data.scope), event.data.scope] };
      case 'ScopeRevoked':
        return { ...doc, scopes: doc.scopes.filter((s) => s !== event.data.scope) };
      default:
        return doc;
    }
  },
};
