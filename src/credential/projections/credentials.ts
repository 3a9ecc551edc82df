import { CredentialEvent, credentialEventSchemas } from '../decider';
import { CredentialDocument, NOTHING_DECIDED } from '../views';
import { typesOf } from '../../shared/domain/events';
import { Projection } from '../../shared/projections/projection';
import { evolveScopes } from './scope-view';

/** Each member's credential application with its scopes: the dashboard and the review queue. */
export const credentialsProjection: Projection<CredentialDocument, CredentialEvent> = {
  name: 'credentials',
  version: 2,
  collection: { name: 'credentials', indexes: ['status'] },

  handles: typesOf(credentialEventSchemas),
  documentIds: (event) => [String(event.data.member_id)],

  evolve(doc, event) {
    const time = event.metadata.time;
    const scopes = evolveScopes(doc?.scopes ?? [], event);
    if (event.type === 'CredentialApplied') {
      return {
        ...NOTHING_DECIDED,
        member_id: event.data.member_id,
        username: event.data.username,
        status: 'pending',
        applied_at: time,
        scopes,
      };
    }
    if (!doc) throw new Error(`${event.type} for member ${event.data.member_id}, who never applied`);
    switch (event.type) {
      case 'CredentialApproved':
        return { ...doc, status: 'approved', reviewed_at: time, expires_at: event.data.expires_at, extension: null };
      case 'CredentialRejected':
        return { ...doc, status: 'rejected', reviewed_at: time, reject_reason: event.data.reason };
      case 'CredentialClaimed':
        return { ...doc, status: 'active', apiid: event.data.apiid, claimed_at: time };
      case 'KeyRotated':
        return { ...doc, key_rotated_at: time };
      case 'CredentialRevoked':
        return { ...doc, status: 'revoked', revoked_at: time, revoke_reason: event.data.reason, scopes };
      case 'ExtensionRequested':
        return { ...doc, extension: { status: 'pending', expires_at: event.data.expires_at, reason: event.data.reason, requested_at: time, reviewed_at: null, reject_reason: null } };
      case 'ExtensionApproved':
        return { ...doc, expires_at: event.data.expires_at, extension: doc.extension && { ...doc.extension, status: 'approved', reviewed_at: time } };
      case 'ExtensionRejected':
        return { ...doc, extension: doc.extension && { ...doc.extension, status: 'rejected', reviewed_at: time, reject_reason: event.data.reason } };
      default:
        return { ...doc, scopes };
    }
  },
};
