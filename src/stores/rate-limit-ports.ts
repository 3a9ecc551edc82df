/** The rate-limit port: attempt counters that every adapter keeps, shared between API instances where it can. */

/** How many attempts a key may make per window, and what going over costs. */
export interface LimitPolicy {
  /** The key space: limiters of one name count the same attempts, in every process sharing the stores. */
  name: string;
  /** Attempts a key may make per window. */
  points: number;
  windowSeconds: number;
  /** How long a key that went over is refused; 0 refuses it until its window ends. */
  blockSeconds: number;
  /**
   * Counted on every request of a hot path: the embedded adapter keeps these counts in this
   * process's memory, so that counting never waits on a disk write; production shares them in
   * MongoDB like every other limit.
   */
  hot?: boolean;
}

/** The outcome of one counted attempt. */
export interface Allowance {
  /** False when the attempt is over the limit, or the key is blocked: refuse it. */
  allowed: boolean;
  /** Attempts left in the window after this one. */
  remaining: number;
  /** Milliseconds until the window starts again or, when refused, until the key may try again. */
  resetMs: number;
}

export interface RateLimiter {
  /**
   * Counts one attempt of the key, atomically among everyone sharing the counts. A limiter that
   * counts in this process's memory (a hot policy, embedded) answers at once, without a promise.
   */
  consume(key: string): Allowance | Promise<Allowance>;
  /** Forgets the key's attempts and lifts its block. */
  reset(key: string): Promise<void>;
  /** Gives back one attempt counted in the window, for an attempt that turned out not to count. */
  refund(key: string): Promise<void>;
}

/** Attempt counters (rate limits), kept where the adapter can share them between API instances. */
export interface RateLimits {
  limiter(policy: LimitPolicy): Promise<RateLimiter>;
}
