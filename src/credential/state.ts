import { reportKey } from './leaks/decide';
import { CredentialEvent } from './events';
import { keysInGraceAfterRotation, KeyInGrace } from './grace-period';
import { scopesAfter, ScopeStatus } from './scope-lifecycle';
import { ExpiryNotices, noNotices, noticesAfter } from './expiry-notices';

/**
 * A member's API credential and its scopes: one stream per member (docs/credentials.md).
 *
 *   none → pending (apply) → approved | rejected;  rejected → pending (apply again)
 *   approved → active (claim, exactly once);  active → active (rotate);  active | approved → revoked
 *   revoked → pending (apply again: a new claim issues a new API id, no scope carries over)
 *
 * Scopes live on an active credential: requested one event per name, then approved, rejected or
 * revoked each on its own. Revoking the credential revokes every scope still pending or approved.
 */
export const credentialStream = (memberId: number): string => `credential-${memberId}`;

export const CREDENTIAL_STATUSES = ['none', 'pending', 'approved', 'rejected', 'active', 'revoked'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

export interface CredentialState {
  status: CredentialStatus;
  apiid: string | null;
  key_digest: string | null;
  scopes: Record<string, ScopeStatus>;
  expires_at: string | null;
  expiry: ExpiryNotices;
  /** The extension waiting for a decision, if any. */
  extension: { expires_at: string } | null;
  /** Rotated-away keys that may still be accepted, newest first; the next rotation decides which stay. */
  keys_in_grace: KeyInGrace[];
  /** The leak reports recorded (./leaks/decide.ts), kept across applications: a report is recorded once. */
  leak_reports: string[];
}

export const initialState: CredentialState = {
  status: 'none',
  apiid: null,
  key_digest: null,
  scopes: {},
  expires_at: null,
  expiry: noNotices(),
  extension: null,
  keys_in_grace: [],
  leak_reports: [],
};

/** An event as the stream is folded from the log: with the time it was recorded, which a fresh decision's events lack. */
export type Folded = CredentialEvent & { metadata?: { time: string } };

/** The credential after one more event of its stream. */
export function evolve(state: CredentialState, event: Folded): CredentialState {
  const scopes = scopesAfter(state.scopes, event);
  switch (event.type) {
    case 'CredentialApplied':
      return { ...initialState, status: 'pending', scopes, leak_reports: state.leak_reports };
    case 'KeyLeakReported':
      return { ...state, leak_reports: [...state.leak_reports, reportKey(event.data)] };
    case 'CredentialApproved':
      return {
        ...state,
        status: 'approved',
        expires_at: event.data.expires_at,
        expiry: noNotices(event.metadata?.time),
      };
    case 'CredentialRejected':
      return { ...state, status: 'rejected' };
    case 'CredentialClaimed':
      return {
        ...state,
        status: 'active',
        apiid: event.data.apiid,
        key_digest: event.data.key_digest,
        keys_in_grace: [],
      };
    case 'KeyRotated':
      return {
        ...state,
        status: 'active',
        apiid: event.data.apiid,
        key_digest: event.data.key_digest,
        keys_in_grace: keysInGraceAfterRotation(event.data, state.keys_in_grace, event.metadata?.time),
      };
    case 'CredentialRevoked':
      return { ...state, status: 'revoked', scopes };
    default:
      return evolveExpiry({ ...state, scopes }, event);
  }
}

/** The expiry's notices and extensions: they leave the credential's status and scopes as they are. */
function evolveExpiry(state: CredentialState, event: Folded): CredentialState {
  switch (event.type) {
    case 'CredentialExpiring':
    case 'CredentialExpired':
      return { ...state, expiry: noticesAfter(state.expiry, event) };
    case 'ExtensionRequested':
      return { ...state, extension: { expires_at: event.data.expires_at } };
    case 'ExtensionApproved':
      return { ...state, extension: null, expires_at: event.data.expires_at, expiry: noNotices(event.metadata?.time) };
    case 'ExtensionRejected':
      return { ...state, extension: null };
    default:
      return state;
  }
}
