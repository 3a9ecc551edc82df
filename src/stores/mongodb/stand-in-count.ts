import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimiter } from '../ports';
import { rateLimiterOver } from '../rate-limiter';

const TIMED_OUT = Symbol('timed out');

/**
 * Counts in `shared` (MongoDB), and when it has not answered within `answerWithinMs` (or failed),
 * answers from `standIn` (this process's memory) instead: a partner call must not wait on an
 * outage. The late shared count is not cancelled (the driver cannot take back a write it sent),
 * so once it lands the stand-in takes its own count back: an attempt is counted once, in MongoDB
 * when MongoDB counted it, in memory only when it never did.
 */
export function standInWhileSlow(
  shared: RateLimiterAbstract,
  standIn: RateLimiterAbstract,
  answerWithinMs: number,
): RateLimiter {
  const sharedCounts = rateLimiterOver(shared);
  const standInCounts = rateLimiterOver(standIn);
  return {
    async consume(key) {
      const counting = sharedCounts.consume(key);
      const answer = await settledWithin(counting, answerWithinMs);
      if (answer !== TIMED_OUT && answer.ok) return answer.value;
      const local = await standInCounts.consume(key);
      if (answer === TIMED_OUT) {
        counting.then(
          () => standIn.reward(key, 1).catch(() => undefined),
          () => undefined,
        );
      }
      return local;
    },
    async reset(key) {
      // Both: a reset must hold whichever of the two answers the next attempt.
      await standInCounts.reset(key);
      const answer = await settledWithin(sharedCounts.reset(key), answerWithinMs);
      if (answer !== TIMED_OUT && !answer.ok) throw answer.error;
    },
    async refund(key) {
      // Where consume counted it: in MongoDB when it answers, else in this process's memory.
      const answer = await settledWithin(sharedCounts.refund(key), answerWithinMs);
      if (answer === TIMED_OUT || !answer.ok) await standInCounts.refund(key);
    },
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settledWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T> | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  const settled = promise.then(
    (value): Settled<T> => ({ ok: true, value }),
    (error: unknown): Settled<T> => ({ ok: false, error }),
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}
