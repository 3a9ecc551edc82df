import { CredentialEvent, credentialEventSchemas, CredentialStatus } from '../decider';
import { typesOf } from '../../shared/domain/events';
import { Projection } from '../../shared/projections/projection';
import { evolveScopes, ScopeView } from './scope-view';

export interface CredentialDocument {
  member_id: number;
  username: string;
  status: Exclude<CredentialStatus, 'none'>;
  apiid: string | null;
  applied_at: string;
  reviewed_at: string | null;
  reject_reason: string | null;
  claimed_at: string | null;
  key_rotated_at: string | null;
  revoked_at: string | null;
  revoke_reason: string | null;
  scopes: ScopeView[];
}

/** A new application: no review, no key, no revocation yet (also what the dashboard shows before any). */
export const NOTHING_DECIDED = {
  apiid: null,
  reviewed_at: null,
  reject_reason: null,
  claimed_at: null,
  key_rotated_at: null,
  revoked_at: null,
  revoke_reason: null,
} as const;

/** Each member's credential application with its scopes: the dashboard and the review queue. */
export const credentialsProjection: Projection<CredentialDocument, CredentialEvent> = {
  name: 'credentials',
  version: 1,
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
        return { ...doc, status: 'approved', reviewed_at: time };
      case 'CredentialRejected':
        return { ...doc, status: 'rejected', reviewed_at: time, reject_reason: event.data.reason };
      case 'CredentialClaimed':
        return { ...doc, status: 'active', apiid: event.data.apiid, claimed_at: time };
      case 'KeyRotated':
        return { ...doc, key_rotated_at: time };
      case 'CredentialRevoked':
        return { ...doc, status: 'revoked', revoked_at: time, revoke_reason: event.data.reason, scopes };
      default:
        return { ...doc, scopes };
    }
  },
};
