import { Settings } from '../../config';
import { LimitPolicy, RateLimiter } from '../../stores/ports';
import { PartnerQuota } from '../../credential/endpoints/partner-guard';
import { tooManyRequests, wholeSeconds } from './too-many-requests';

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

/**
 * Counts each accepted partner call against its API id (never the key, which is a secret) and
 * tells the partner where it stands on every such answer, in the header fields of
 * draft-ietf-httpapi-ratelimit-headers-06; over the limit, 429 with Retry-After.
 */
export function openApiQuota(limiter: RateLimiter, policy: LimitPolicy): PartnerQuota {
  const limit = String(policy.points);
  const quotaPolicy = `${policy.points};w=${policy.windowSeconds}`;
  const why = `this API id made more than ${policy.points} calls in ${policy.windowSeconds} s`;
  return async (ctx, apiid) => {
    const allowance = await limiter.consume(apiid);
    ctx.set('RateLimit-Policy', quotaPolicy);
    ctx.set('RateLimit-Limit', limit);
    ctx.set('RateLimit-Remaining', String(allowance.remaining));
    ctx.set('RateLimit-Reset', String(wholeSeconds(allowance.resetMs)));
    if (!allowance.allowed) throw tooManyRequests('rate_limited', why, allowance.resetMs);
  };
}
