/** What became of an open-API call, as the operators' metrics count it (docs/operations.md). */
export const OPEN_API_OUTCOMES = ['ok', 'invalid_key', 'revoked', 'expired', 'scope_missing', 'rate_limited', 'invalid_request', 'unavailable'] as const;

export type OpenApiOutcome = (typeof OPEN_API_OUTCOMES)[number];

// The refusals of the partner gate (endpoints/partner-guard.ts) and of the open-API rate limit.
const BY_ERROR: Record<string, OpenApiOutcome | undefined> = {
  api_credentials_missing: 'invalid_key',
  api_credentials_invalid: 'invalid_key',
  credential_revoked: 'revoked',
  credential_expired: 'expired',
  scope_not_approved: 'scope_missing',
  rate_limited: 'rate_limited',
};

/** The outcome of a call answered with `status`, refused with `error` (the envelope's data.error) if it was. */
export function openApiOutcome(error: string | undefined, status: number): OpenApiOutcome {
  if (status < 400) return 'ok';
  const known = error === undefined ? undefined : BY_ERROR[error];
  if (known) return known;
  // A credential accepted, a request refused (an unknown query parameter): the partner's to fix.
  if (status < 500) return 'invalid_request';
  // What the partner could not be answered for: the key ring cannot vouch, a store is out, or a bug.
  return 'unavailable';
}
