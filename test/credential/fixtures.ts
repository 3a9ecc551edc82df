import { CredentialEvent } from '../../src/credential/events';
import { eventLog } from '../support/projection-spec';

/** Credential events of one member, as the tests of the credential slice build their histories. */
export const credentialEvents = (member_id: number) => ({
  applied: (username = `user${member_id}`): CredentialEvent => ({
    type: 'CredentialApplied',
    data: { member_id, username, purpose: null, company: null, website: null },
  }),
  approved: (expires_at: string | null = null): CredentialEvent => ({
    type: 'CredentialApproved',
    data: { member_id, expires_at, rule: null },
  }),
  rejected: (reason: string): CredentialEvent => ({ type: 'CredentialRejected', data: { member_id, reason } }),
  claimed: (apiid: string, key_digest: string, expires_at: string | null = null): CredentialEvent => ({
    type: 'CredentialClaimed',
    data: { member_id, apiid, key_digest, expires_at },
  }),
  rotated: (
    apiid: string,
    key_digest: string,
    previous_key_digest: string,
    previous_key_valid_until: string | null,
    earlier_keys: { digest: string; valid_until: string }[] | null = [],
  ): CredentialEvent => ({
    type: 'KeyRotated',
    data: { member_id, apiid, key_digest, previous_key_digest, previous_key_valid_until, earlier_keys },
  }),
  revoked: (reason: string): CredentialEvent => ({ type: 'CredentialRevoked', data: { member_id, reason } }),
  requested: (scope: string, reason = 'sync'): CredentialEvent => ({
    type: 'ScopeRequested',
    data: { member_id, scope, reason },
  }),
  scopeApproved: (scope: string): CredentialEvent => ({
    type: 'ScopeApproved',
    data: { member_id, scope, rule: null },
  }),
  scopeRejected: (scope: string, reason: string): CredentialEvent => ({
    type: 'ScopeRejected',
    data: { member_id, scope, reason },
  }),
  scopeRevoked: (scope: string, reason: string): CredentialEvent => ({
    type: 'ScopeRevoked',
    data: { member_id, scope, reason },
  }),
  expiring: (expires_at: string, days_before: number): CredentialEvent => ({
    type: 'CredentialExpiring',
    data: { member_id, expires_at, days_before },
  }),
  expired: (expires_at: string): CredentialEvent => ({ type: 'CredentialExpired', data: { member_id, expires_at } }),
  extensionRequested: (expires_at: string, reason: string): CredentialEvent => ({
    type: 'ExtensionRequested',
    data: { member_id, expires_at, reason },
  }),
  extensionApproved: (expires_at: string): CredentialEvent => ({
    type: 'ExtensionApproved',
    data: { member_id, expires_at },
  }),
  extensionRejected: (reason: string): CredentialEvent => ({ type: 'ExtensionRejected', data: { member_id, reason } }),
});

// Credential events of member 1 unless a member id is given.
export const M = 1;
export const applied = (member_id = M): CredentialEvent => credentialEvents(member_id).applied();
export const approved = (member_id = M): CredentialEvent => credentialEvents(member_id).approved();
export const claimed = (apiid: string, key_digest: string, member_id = M): CredentialEvent =>
  credentialEvents(member_id).claimed(apiid, key_digest);
export const requested = (scope: string, reason = 'sync', member_id = M): CredentialEvent =>
  credentialEvents(member_id).requested(scope, reason);
export const { rejected, rotated, revoked, scopeApproved, scopeRejected, scopeRevoked } = credentialEvents(M);

export const APIID = 'ak_aaaaaaaaaaaaaaaaaaaa';
export const APIID2 = 'ak_bbbbbbbbbbbbbbbbbbbb';

/** Member 1 applied at 10:00, was approved at 10:01 and claimed at 10:02. */
export const activeLog = () =>
  eventLog().credential(0, applied()).credential(1, approved()).credential(2, claimed(APIID, 'k1'));
