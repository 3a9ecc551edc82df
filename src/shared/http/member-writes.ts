import type { Middleware } from 'koa';
import type { Settings } from '../../config';
import type { LimitPolicy, RateLimiter } from '../../stores/ports';
import type { AppState } from './context';
import { HttpError } from './envelope';
import { memberOf } from './guards';
import { tellStanding } from './rate-limit-fields';
import { tooManyRequests } from './too-many-requests';

/** A member's self-service writes a minute: each may append to the log, which no member may grow without bound. */
export function memberWritePolicy(settings: Pick<Settings, 'MEMBER_WRITE_LIMIT'>): LimitPolicy {
  return { name: 'member-write', points: settings.MEMBER_WRITE_LIMIT, windowSeconds: 60, blockSeconds: 0 };
}

export const TOO_MANY_CHANGES =
  'too_many_changes: this member made more self-service changes than MEMBER_WRITE_LIMIT allows in a minute; retry after Retry-After';

/**
 * Counts every write of a signed-in member against the member (not the address: one session is
 * enough to flood, and a member on a shared address is not slowed by the others). Counted before
 * the input is read, so a refused body costs its sender too; every answer counted tells where the
 * member stands, as the open API's do.
 */
export function limitMemberWrites(limiter: RateLimiter, policy: LimitPolicy): Middleware<AppState> {
  return async (ctx, next) => {
    const allowance = await limiter.consume(String(memberOf(ctx).id));
    tellStanding(ctx, [policy, allowance]);
    if (!allowance.allowed)
      throw HttpError.from(
        tooManyRequests('too_many_changes', 'too many changes to this account in a minute', allowance.resetMs),
      );
    await next();
  };
}
