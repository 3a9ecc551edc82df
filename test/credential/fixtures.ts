import { CredentialEvent } from '../../src/credential/events';
import { eventLog } from '../support/projection-spec';

/** Credential events, as the tests of the credential slice build their histories. */
// Credential events of member 1 unless a member id is given.
export const M = 1;
export const applied = (member_id = M): CredentialEvent => ({ type: 'CredentialApplied', data: { member_id, username: `user${member_id}` } });
export const approved = (member_id = M): CredentialEvent => ({ type: 'CredentialApproved', data: { member_id, expires_at: null } });
export const rejected = (reason: string): CredentialEvent => ({ type: 'CredentialRejected', data: { member_id: M, reason } });
export const claimed = (apiid: string, key_digest: string, member_id = M): CredentialEvent => ({
  type: 'CredentialClaimed',
  data: { member_id, apiid, key_digest, expires_at: null },
});
export const rotated = (
  apiid: string,
  key_digest: string,
  previous_key_digest: string,
  previous_key_valid_until: string | null,
  earlier_keys: { digest: string; valid_until: string }[] | null = [],
): CredentialEvent => ({
  type: 'KeyRotated',
  data: { member_id: M, apiid, key_digest, previous_key_digest, previous_key_valid_until, earlier_keys },
});
export const revoked = (reason: string): CredentialEvent => ({ type: 'CredentialRevoked', data: { member_id: M, reason } });
export const requested = (scope: string, reason = 'sync', member_id = M): CredentialEvent => ({ type: 'ScopeRequested', data: { member_id, scope, reason } });
export const scopeApproved = (scope: string): CredentialEvent => ({ type: 'ScopeApproved', data: { member_id: M, scope } });
export const scopeRejected = (scope: string, reason: string): CredentialEvent => ({ type: 'ScopeRejected', data: { member_id: M, scope, reason } });
export const scopeRevoked = (scope: string, reason: string): CredentialEvent => ({ type: 'ScopeRevoked', data: { member_id: M, scope, reason } });

export const APIID = 'ak_aaaaaaaaaaaaaaaaaaaa';
export const APIID2 = 'ak_bbbbbbbbbbbbbbbbbbbb';

/** Member 1 applied at 10:00, was approved at 10:01 and claimed at 10:02. */
export const activeLog = () => eventLog().credential(0, applied()).credential(1, approved()).credential(2, claimed(APIID, 'k1'));

