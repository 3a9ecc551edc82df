import { memoryRateLimiter } from '../../../src/stores/memory-rate-limiter';
import type { LimitPolicy } from '../../../src/stores/ports';

/** The hot policies' counts (the open API's, embedded): the semantics of the shared limiters (rate-limits.contract.ts), at once. */
describe('the in-memory rate limiter', () => {
  let time = 1_000_000;
  const clock = () => time;
  const policy = (overrides: Partial<LimitPolicy> = {}): LimitPolicy => ({
    name: 'open-api',
    points: 3,
    windowSeconds: 60,
    blockSeconds: 0,
    hot: true,
    ...overrides,
  });

  it('admits a key up to its points, then refuses it until the window ends, and answers without a promise', () => {
    const limiter = memoryRateLimiter(policy(), clock);
    expect(limiter.consume('k')).toEqual({ allowed: true, remaining: 2, resetMs: 60_000 });
    time += 10_000;
    expect(limiter.consume('k')).toEqual({ allowed: true, remaining: 1, resetMs: 50_000 });
    expect(limiter.consume('k')).toEqual({ allowed: true, remaining: 0, resetMs: 50_000 });
    expect(limiter.consume('k')).toEqual({ allowed: false, remaining: 0, resetMs: 50_000 });
    time += 50_000;
    expect(limiter.consume('k')).toEqual({ allowed: true, remaining: 2, resetMs: 60_000 });
  });

  it('counts each key apart', () => {
    const limiter = memoryRateLimiter(policy({ points: 1 }), clock);
    expect(limiter.consume('a').allowed).toBe(true);
    expect(limiter.consume('a').allowed).toBe(false);
    expect(limiter.consume('b').allowed).toBe(true);
  });

  it('blocks a key that went over for blockSeconds, past its window, until reset lifts the block', async () => {
    const limiter = memoryRateLimiter(policy({ points: 2, windowSeconds: 1, blockSeconds: 900 }), clock);
    limiter.consume('k');
    limiter.consume('k');
    expect(limiter.consume('k')).toEqual({ allowed: false, remaining: 0, resetMs: 900_000 });
    time += 5_000;
    expect(limiter.consume('k')).toEqual({ allowed: false, remaining: 0, resetMs: 895_000 });
    await limiter.reset('k');
    expect(limiter.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('gives back an attempt on refund', async () => {
    const limiter = memoryRateLimiter(policy({ points: 1 }), clock);
    limiter.consume('k');
    await limiter.refund('k');
    expect(limiter.consume('k').allowed).toBe(true);
    expect(limiter.consume('k').allowed).toBe(false);
  });
});
