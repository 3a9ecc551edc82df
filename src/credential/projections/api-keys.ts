import { CredentialEvent } from '../events';
import { AcceptedKey, keysInGraceAfterRotation } from '../grace-period';
import { scopeNamed, scopeStatusAfter } from '../scope-lifecycle';
import { Recorded } from '../../shared/domain/events';
import { Projection } from '../../shared/projections/projection';

/** What the open API checks a partner call against: no clear key, ever. */
export interface ApiKeyDocument {
  member_id: number;
  apiid: string;
  revoked: boolean;
  /** When every key of this credential stops being accepted; null: never. A rotation keeps it. */
  expires_at: string | null;
  keys: AcceptedKey[];
  /** Scopes approved and not revoked. */
  scopes: string[];
  /**
   * Digests of keys reported found in public and quarantined: refused whatever `keys` says, until
   * a rotation replaces them. Absent from documents written before leaks were reported.
   */
  leaked?: string[];
}

/** The approved scopes after a credential event, by the scope lifecycle (a scope not listed is not approved). */
function approvedAfter(approved: string[], event: Recorded<CredentialEvent>): string[] {
  const named = scopeNamed(event);
  const names = named === undefined || approved.includes(named) ? approved : [...approved, named];
  return names.filter(
    (name) => scopeStatusAfter(name, approved.includes(name) ? 'approved' : undefined, event) === 'approved',
  );
}

/** Claimed credentials by member, found by API id: the source of every instance's in-memory key ring. */
export const apiKeysProjection: Projection<ApiKeyDocument, CredentialEvent> = {
  name: 'api_keys',
  version: 2,
  // No index: the key ring holds the whole collection in memory, and finding a member by API id reads api_ids.
  collection: { name: 'api_keys', indexes: [] },
  // Partners are told what they cannot do, not which read model failed.
  unavailable: { error: 'credentials_unavailable', what: 'credentials cannot be checked' },
  handles: [
    'CredentialApplied',
    'CredentialClaimed',
    'KeyRotated',
    'CredentialRevoked',
    'ScopeApproved',
    'ScopeRevoked',
    'ExtensionApproved',
    'KeyLeakReported',
  ],
  documentIds: (event) => [String(event.data.member_id)],

  evolve(doc, event) {
    switch (event.type) {
      case 'CredentialClaimed':
        return {
          member_id: event.data.member_id,
          apiid: event.data.apiid,
          revoked: false,
          expires_at: event.data.expires_at,
          keys: [{ digest: event.data.key_digest, valid_until: null }],
          scopes: [],
        };
      // A new application: the claimed key stops, until a new claim issues another.
      case 'CredentialApplied':
        return null;
      default:
        if (!doc) return null;
    }
    switch (event.type) {
      case 'KeyRotated': {
        const current = { digest: event.data.key_digest, valid_until: null };
        return changed(doc, {
          keys: [current, ...keysInGraceAfterRotation(event.data, doc.keys, event.metadata.time)],
        });
      }
      case 'CredentialRevoked':
        return changed(doc, { revoked: true, scopes: approvedAfter(doc.scopes, event) });
      case 'ExtensionApproved':
        return changed(doc, { expires_at: event.data.expires_at });
      case 'KeyLeakReported':
        return event.data.quarantined ? changed(doc, { leaked: [...(doc.leaked ?? []), event.data.key_digest] }) : doc;
      default:
        return changed(doc, { scopes: approvedAfter(doc.scopes, event) });
    }
  },
};

/**
 * The document with some fields changed, copied field by field: V8 builds this fixed-shape literal
 * several times as fast as a spread, and a rebuild copies a key document for most scope events.
 */
function changed(doc: ApiKeyDocument, changes: Partial<ApiKeyDocument>): ApiKeyDocument {
  const copy: ApiKeyDocument = {
    member_id: doc.member_id,
    apiid: doc.apiid,
    revoked: doc.revoked,
    expires_at: doc.expires_at,
    keys: doc.keys,
    scopes: doc.scopes,
  };
  if (doc.leaked) copy.leaked = doc.leaked;
  return Object.assign(copy, changes);
}
