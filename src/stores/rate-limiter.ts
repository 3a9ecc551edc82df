import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Allowance, LimitPolicy, RateLimiter } from './ports';

/**
 * rate-limiter-flexible's options for a policy. The policy's name is the key prefix, so limiters
 * of one name in different processes count the same keys.
 */
export function libraryOptions(policy: LimitPolicy) {
  return {
    keyPrefix: policy.name,
    points: policy.points,
    duration: policy.windowSeconds,
    blockDuration: policy.blockSeconds,
    // A key over a limit without a block stays refused until its window ends: the process remembers
    // that and stops asking the store, so a flood past the limit (wrong API keys by the thousand)
    // costs no write each. (With a block, the library must write the block.)
    inMemoryBlockOnConsumed: policy.blockSeconds === 0 ? policy.points + 1 : 0,
  };
}

/** The library's limiters answer through promises, in memory too. */
export interface LibraryRateLimiter extends RateLimiter {
  consume(key: string): Promise<Allowance>;
}

/**
 * The port over one of the library's limiters, whichever store it counts in. The library rejects
 * a refused attempt with its result object and a failed store with an Error: only the first is an
 * answer, the second stays an error.
 */
export function rateLimiterOver(counter: RateLimiterAbstract): LibraryRateLimiter {
  return {
    async consume(key) {
      try {
        const counted = await counter.consume(key);
        return { allowed: true, remaining: counted.remainingPoints, resetMs: counted.msBeforeNext };
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        return { allowed: false, remaining: 0, resetMs: refused.msBeforeNext };
      }
    },
    async reset(key) {
      await counter.delete(key);
    },
    async refund(key) {
      await counter.reward(key, 1);
    },
  };
}
