import { OpenApiRefusal } from '../shared/http/open-api-refusals';

// The contract tells a partner the four 401s in one sentence; data.error tells them apart.
const notAccepted = () =>
  'X-API-ID or X-API-Key is missing or not accepted (unknown, wrong, rotated away, the credential revoked, or past its expires_at: credential_expired, or the key was found in public: credential_leaked)';

export const CREDENTIALS_MISSING: OpenApiRefusal = {
  reason: 'api_credentials_missing',
  status: 401,
  when: notAccepted,
  outcome: 'invalid_key',
};
export const CREDENTIALS_NOT_ACCEPTED: OpenApiRefusal = {
  reason: 'api_credentials_invalid',
  status: 401,
  when: notAccepted,
  outcome: 'invalid_key',
};
export const CREDENTIAL_REVOKED: OpenApiRefusal = {
  reason: 'credential_revoked',
  status: 401,
  when: notAccepted,
  outcome: 'revoked',
};
export const CREDENTIAL_EXPIRED: OpenApiRefusal = {
  reason: 'credential_expired',
  status: 401,
  when: notAccepted,
  outcome: 'expired',
};
export const CREDENTIAL_LEAKED: OpenApiRefusal = {
  reason: 'credential_leaked',
  status: 401,
  when: notAccepted,
  outcome: 'leaked',
};
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
