import type { Allowance, LimitPolicy } from '../../stores/ports';
import { wholeSeconds } from './too-many-requests';

/** Header fields as [name, value] pairs, in the order they are sent. */
export type HeaderFields = [string, string][];

/**
 * Where a key stands against its limit, in the header fields of
 * draft-ietf-httpapi-ratelimit-headers-06 (docs/rate-limits.md): told on every answer counted, so
 * a client paces itself before it is refused.
 */
export function rateLimitFields(policy: LimitPolicy, allowance: Allowance): HeaderFields {
  return [
    ['RateLimit-Policy', `${policy.points};w=${policy.windowSeconds}`],
    ['RateLimit-Limit', String(policy.points)],
    ['RateLimit-Remaining', String(allowance.remaining)],
    ['RateLimit-Reset', String(wholeSeconds(allowance.resetMs))],
  ];
}
