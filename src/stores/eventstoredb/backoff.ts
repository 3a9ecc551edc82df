/**
 * Exponential back-off with a cap and jitter ("full" or "equal", as in the AWS Architecture Blog
 * post "Exponential Backoff And Jitter"). Jitter keeps many API instances that lost the same
 * server from reconnecting in lock step. Pure: randomness comes in as a function.
 */
export interface BackoffPolicy {
  /** Ceiling of the first delay. */
  initialMs: number;
  /** No delay's ceiling exceeds this. */
  maxMs: number;
  /** Growth of the ceiling per attempt; 2 unless given. */
  factor?: number;
  /** 'full': uniform in [0, ceiling]; 'equal': uniform in [ceiling/2, ceiling]. */
  jitter: 'full' | 'equal';
}

/** Ceiling of the delay before retry number `attempt` (0-based). */
export function backoffCeiling(attempt: number, policy: BackoffPolicy): number {
  const factor = policy.factor ?? 2;
  // Clamped so that a long outage never turns the ceiling into Infinity (or NaN when initialMs is 0).
  const grown = policy.initialMs * factor ** Math.min(attempt, 64);
  return Math.min(policy.maxMs, grown);
}

/** Delay before retry number `attempt`; `random` returns values in [0, 1) like Math.random. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = backoffCeiling(attempt, policy);
  const r = Math.min(Math.max(random(), 0), 1);
  return policy.jitter === 'full' ? r * ceiling : ceiling / 2 + (r * ceiling) / 2;
}

/** Resubscribing after a dropped subscription: quick first retry, never more than 30 s apart. */
export const RESUBSCRIBE_BACKOFF: BackoffPolicy = { initialMs: 200, maxMs: 30_000, jitter: 'equal' };

/** Start-up connection attempts, bounded by a total budget in production.ts. */
export const STARTUP_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 5_000, jitter: 'equal' };
