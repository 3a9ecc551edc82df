import { anonymousSessionMinutes, Settings } from '../../config';
import { LimitPolicy, RateLimiter } from '../../stores/ports';
import type { AddressKey } from './client-address';
import type { Refusal } from './endpoints';
import { HttpError } from './envelope';
import { tooManyRequests } from './too-many-requests';
import { tellStanding } from './rate-limit-fields';

/** Registrations per client address: each one stores a member and costs a password hash. */
export function registrationPolicy(settings: Settings): LimitPolicy {
  return {
    name: 'registration',
    points: settings.REGISTRATION_LIMIT,
    windowSeconds: settings.REGISTRATION_WINDOW_SECONDS,
    blockSeconds: 0,
  };
}

/** New sessions without an identity per client address: each is a stored row until it expires, so the window is its life. */
export function anonymousSessionPolicy(settings: Settings): LimitPolicy {
  return {
    name: 'anonymous-session',
    points: settings.ANONYMOUS_SESSION_LIMIT,
    windowSeconds: Math.ceil(anonymousSessionMinutes(settings) * 60),
    blockSeconds: 0,
  };
}

export const tooManyRegistrations: Refusal = {
  status: 429,
  reasons: ['too_many_registrations'],
  when: 'too_many_registrations: this client address registered too many members in the window; retry after Retry-After',
};

/**
 * Counts one new session without an identity of the client's address: over the quota, the session
 * is kept nowhere rather than refused, so that spending an address's quota keeps nobody there
 * from signing in (`sessionRecords`).
 */
export function anonymousSessionQuota(
  limiter: RateLimiter,
  keyOf: AddressKey,
): (ctx: { ip: string }) => Promise<boolean> {
  return async (ctx) => (await limiter.consume(keyOf(ctx.ip))).allowed;
}

/**
 * Counts one attempt of the client's address (by its key: an IPv6 prefix), and tells where the
 * address stands on the answer, whatever it is; over the limit, 429 with Retry-After.
 */
export function perAddress(
  limiter: RateLimiter,
  policy: LimitPolicy,
  keyOf: AddressKey,
  error: string,
  why: string,
): (ctx: { ip: string; set(field: string, value: string): void }) => Promise<void> {
  return async (ctx) => {
    const allowance = await limiter.consume(keyOf(ctx.ip));
    tellStanding(ctx, [policy, allowance]);
    if (!allowance.allowed) throw HttpError.from(tooManyRequests(error, why, allowance.resetMs));
  };
}
