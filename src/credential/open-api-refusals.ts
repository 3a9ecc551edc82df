import { OpenApiRefusal } from '../shared/http/open-api-refusals';

const notAccepted = () =>
  'X-API-ID or X-API-Key is missing or not accepted (unknown, wrong, rotated away, the credential revoked, or past its expires_at: credential_expired, or the key was found in public: credential_leaked)';

/** A 401: the contract tells a partner all of them in one sentence; data.error and the metric's outcome tell them apart. */
const notAcceptedAs = (reason: string, outcome: string): OpenApiRefusal => ({
  reason,
  status: 401,
  when: notAccepted,
  outcome,
});

export const CREDENTIALS_MISSING = notAcceptedAs('api_credentials_missing', 'invalid_key');
export const CREDENTIALS_NOT_ACCEPTED = notAcceptedAs('api_credentials_invalid', 'invalid_key');
export const CREDENTIAL_REVOKED = notAcceptedAs('credential_revoked', 'revoked');
export const CREDENTIAL_EXPIRED = notAcceptedAs('credential_expired', 'expired');
export const CREDENTIAL_LEAKED = notAcceptedAs('credential_leaked', 'leaked');

export const SCOPE_NOT_APPROVED: OpenApiRefusal = {
  reason: 'scope_not_approved',
  status: 403,
  when: (scope) => `the scope ${scope} is not approved for this credential`,
  outcome: 'scope_missing',
};

/** What the partner gate (endpoints/partner-guard.ts) refuses open-API calls with, in the order it checks. */
export const PARTNER_GATE_REFUSALS: readonly OpenApiRefusal[] = [
  CREDENTIALS_MISSING,
  CREDENTIALS_NOT_ACCEPTED,
  CREDENTIAL_REVOKED,
  CREDENTIAL_LEAKED,
  CREDENTIAL_EXPIRED,
  SCOPE_NOT_APPROVED,
];
