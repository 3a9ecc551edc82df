import type { Allowance, LimitPolicy, RateLimiter } from './ports';

interface Count {
  attempts: number;
  windowEnds: number;
  /** Set once the key went over, for a policy with blockSeconds. */
  blockedUntil: number;
}

/** Answers at once. */
export interface MemoryRateLimiter extends RateLimiter {
  consume(key: string): Allowance;
}

/**
 * A policy's counts in this process's memory, answered at once: the open API counts every partner
 * call, and rate-limiter-flexible's memory limiter answers through promises, whose chain cost a
 * partner call more than the counting itself (docs/performance.md). Same semantics as the
 * library's: a fixed window that starts with a key's first attempt, and a block after going over.
 */
export function memoryRateLimiter(policy: LimitPolicy, now: () => number = Date.now): MemoryRateLimiter {
  const counts = new Map<string, Count>();
  const windowMs = policy.windowSeconds * 1000;
  // Counts of keys that stopped calling would stay forever: the ended ones go, once a window, on
  // the count that comes after it (no timer to stop with the stores).
  let sweepAt = now() + windowMs;
  const sweep = (at: number) => {
    for (const [key, count] of counts) if (count.windowEnds <= at && count.blockedUntil <= at) counts.delete(key);
    sweepAt = at + windowMs;
  };

  return {
    consume(key) {
      const at = now();
      if (at >= sweepAt) sweep(at);
      let count = counts.get(key);
      if (count && count.blockedUntil > at) return { allowed: false, remaining: 0, resetMs: count.blockedUntil - at };
      if (!count || count.windowEnds <= at)
        counts.set(key, (count = { attempts: 0, windowEnds: at + windowMs, blockedUntil: 0 }));
      count.attempts += 1;
      if (count.attempts <= policy.points)
        return { allowed: true, remaining: policy.points - count.attempts, resetMs: count.windowEnds - at };
      if (policy.blockSeconds > 0) count.blockedUntil = at + policy.blockSeconds * 1000;
      return { allowed: false, remaining: 0, resetMs: (count.blockedUntil || count.windowEnds) - at };
    },
    async reset(key) {
      counts.delete(key);
    },
    async refund(key) {
      const count = counts.get(key);
      if (count && count.attempts > 0) count.attempts -= 1;
    },
  };
}
