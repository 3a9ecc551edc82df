import { Settings } from '../../config';
import { Allowance, LimitPolicy, RateLimiter } from '../../stores/ports';
import { andThen, Eventually } from '../eventually';
import { Refused } from './envelope';
import { HeaderFields, rateLimitFields } from './rate-limit-fields';
import { RATE_LIMITED, TOO_MANY_CREDENTIAL_FAILURES } from './open-api-refusals';
import type { AddressKey } from './client-address';
import { tooManyRequests } from './too-many-requests';

/** Per API id, in memory in embedded mode: the open API is the hot path (docs/rate-limits.md). */
export function openApiPolicy(settings: Settings): LimitPolicy {
  return {
    name: 'open-api',
    points: settings.OPEN_API_RATE_LIMIT,
    windowSeconds: settings.OPEN_API_RATE_WINDOW_SECONDS,
    blockSeconds: 0,
    hot: true,
  };
}

/** Where an API id stands against its rate limit, told on every answer it is counted for. */
export interface QuotaCount {
  fields: HeaderFields;
  /** The 429 when the API id is over its limit. */
  refusal: Refused | null;
}

/** Counts an accepted partner call against its API id; at once when the counts are in memory. */
export type PartnerQuota = (apiid: string) => Eventually<QuotaCount>;

/**
 * Counts each accepted partner call against its API id (never the key, which is a secret) and
 * tells the partner where it stands on every such answer, in the header fields of
 * draft-ietf-httpapi-ratelimit-headers-06; over the limit, 429 with Retry-After.
 */
export function openApiQuota(limiter: RateLimiter, policy: LimitPolicy): PartnerQuota {
  const why = `this API id made more than ${policy.points} calls in ${policy.windowSeconds} s`;
  const countOf = (allowance: Allowance): QuotaCount => ({
    fields: rateLimitFields([policy, allowance]),
    refusal: allowance.allowed ? null : tooManyRequests(RATE_LIMITED.reason, why, allowance.resetMs),
  });
  return (apiid) => andThen(limiter.consume(apiid), countOf);
}

/**
 * Open-API calls refused for their credential, per client address; hot as the API ids' quota is: a
 * count in the shared SQLite file made every 401 cost four times the CPU of an accepted call
 * (docs/performance.md), which a flood of made-up keys would spend.
 */
export function credentialFailuresPolicy(settings: Settings): LimitPolicy {
  return {
    name: 'open-api-credential-failures',
    points: settings.OPEN_API_CREDENTIAL_FAILURE_LIMIT,
    windowSeconds: settings.OPEN_API_CREDENTIAL_FAILURE_WINDOW_SECONDS,
    blockSeconds: 0,
    hot: true,
  };
}

/**
 * Counts a call refused for its credential (`refusal`, a 401) against its client address, asked
 * only then: an accepted call costs no count. The answer tells where the address stands; over the
 * limit it is a 429 instead of the 401, and no partner's own `open-api` allowance is touched.
 */
export type CredentialFailures = (
  address: () => string,
  refusal: Refused,
) => Eventually<QuotaCount & { refusal: Refused }>;

export function credentialFailures(limiter: RateLimiter, policy: LimitPolicy, keyOf: AddressKey): CredentialFailures {
  const why = `this client address made more than ${policy.points} calls refused for their credential in ${policy.windowSeconds} s`;
  return (address, refusal) =>
    andThen(limiter.consume(keyOf(address())), (allowance) => ({
      fields: rateLimitFields([policy, allowance]),
      refusal: allowance.allowed
        ? refusal
        : tooManyRequests(TOO_MANY_CREDENTIAL_FAILURES.reason, why, allowance.resetMs),
    }));
}
