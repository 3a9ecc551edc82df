/**
 * When a renewal extends a session's life, and by how much more than asked: at most 5 s (and a
 * sixtieth of the lifetime), so that a session used on every request costs a write every few
 * seconds, and outlives its idle limit by no more than that.
 */
export function sessionRenewal(now: number, ttlMs: number): { needed: number; until: number } {
  return { needed: now + ttlMs, until: now + ttlMs + Math.min(5_000, ttlMs / 60) };
}
