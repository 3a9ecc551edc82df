import { CredentialEvent, credentialEventSchemas } from '../events';
import { CredentialDocument, NO_APPLICANT, NOTHING_DECIDED } from '../views';
import { typesOf } from '../../shared/domain/events';
import { Projection } from '../../shared/projections/projection';
import { evolveScopes } from './scope-view';

/**
 * An application nobody has decided on yet, completed by `changed`: a literal spreading
 * NOTHING_DECIDED for each application took V8's slow path and cost a rebuild over a second.
 */
const NEW_APPLICATION: CredentialDocument = {
  ...NOTHING_DECIDED,
  ...NO_APPLICANT,
  member_id: 0,
  username: '',
  status: 'pending',
  applied_at: null,
  scopes: [],
};

/** Each member's credential application with its scopes: the dashboard and the review queue. */
export const credentialsProjection: Projection<CredentialDocument, CredentialEvent> = {
  name: 'credentials',
  // Version 3: an application says who asks (purpose, company, website) and which rule approved it.
  version: 3,
  // expires_at: the expiry watch finds the credentials whose expiry reached a reminder by it.
  collection: { name: 'credentials', indexes: ['status', 'expires_at'] },

  handles: typesOf(credentialEventSchemas),
  documentIds: (event) => [String(event.data.member_id)],

  evolve(doc, event) {
    const time = event.metadata.time;
    const scopes = evolveScopes(doc?.scopes ?? [], event);
    if (event.type === 'CredentialApplied') {
      return changed(NEW_APPLICATION, {
        member_id: event.data.member_id,
        username: event.data.username,
        purpose: event.data.purpose,
        company: event.data.company,
        website: event.data.website,
        applied_at: time,
        scopes,
      });
    }
    if (!doc) throw new Error(`${event.type} for member ${event.data.member_id}, who never applied`);
    switch (event.type) {
      case 'CredentialApproved':
        return changed(doc, {
          status: 'approved',
          reviewed_at: time,
          approved_by_rule: event.data.rule,
          expires_at: event.data.expires_at,
          extension: null,
        });
      case 'CredentialRejected':
        return changed(doc, { status: 'rejected', reviewed_at: time, reject_reason: event.data.reason });
      case 'CredentialClaimed':
        return changed(doc, { status: 'active', apiid: event.data.apiid, claimed_at: time });
      // A rotation replaces the key: what a leak report asked of the member is done.
      case 'KeyRotated':
        return changed(doc, { key_rotated_at: time, leak: null });
      case 'KeyLeakReported':
        return event.data.accepted ? changed(doc, { leak: leakOf(event.data, time) }) : doc;
      case 'CredentialRevoked':
        return changed(doc, { status: 'revoked', revoked_at: time, revoke_reason: event.data.reason, scopes });
      default:
        return evolveExtension(changed(doc, { scopes }), event, time);
    }
  },
};

/** What the dashboard tells of a key found in public. */
function leakOf(
  data: Extract<CredentialEvent, { type: 'KeyLeakReported' }>['data'],
  reported_at: string,
): NonNullable<CredentialDocument['leak']> {
  const { key_fingerprint, url, source, quarantined } = data;
  return { key_fingerprint, url, source, reported_at, quarantined };
}

/** The extension asked for and its decision; every other event leaves the document as it is. */
function evolveExtension(doc: CredentialDocument, event: CredentialEvent, time: string): CredentialDocument {
  switch (event.type) {
    case 'ExtensionRequested':
      return changed(doc, {
        extension: {
          status: 'pending',
          expires_at: event.data.expires_at,
          reason: event.data.reason,
          requested_at: time,
          reviewed_at: null,
          reject_reason: null,
        },
      });
    case 'ExtensionApproved':
      return changed(doc, {
        expires_at: event.data.expires_at,
        extension: doc.extension && { ...doc.extension, status: 'approved', reviewed_at: time },
      });
    case 'ExtensionRejected':
      return changed(doc, {
        extension: doc.extension && {
          ...doc.extension,
          status: 'rejected',
          reviewed_at: time,
          reject_reason: event.data.reason,
        },
      });
    default:
      return doc;
  }
}

/**
 * The document with some fields changed: a copy field by field, then the changes. A rebuild copies
 * a credential for most of its events, and V8 builds this fixed-shape literal about four times as
 * fast as `{ ...doc, ...changes }`. A required field added to the document is a type error here
 * until it is copied.
 */
function changed(doc: CredentialDocument, changes: Partial<CredentialDocument>): CredentialDocument {
  const copy: CredentialDocument = {
    member_id: doc.member_id,
    username: doc.username,
    status: doc.status,
    apiid: doc.apiid,
    applied_at: doc.applied_at,
    purpose: doc.purpose,
    company: doc.company,
    website: doc.website,
    approved_by_rule: doc.approved_by_rule,
    reviewed_at: doc.reviewed_at,
    reject_reason: doc.reject_reason,
    claimed_at: doc.claimed_at,
    key_rotated_at: doc.key_rotated_at,
    expires_at: doc.expires_at,
    revoked_at: doc.revoked_at,
    revoke_reason: doc.revoke_reason,
    extension: doc.extension,
    leak: doc.leak ?? null,
    scopes: doc.scopes,
  };
  return Object.assign(copy, changes);
}
