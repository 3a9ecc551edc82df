import { setTimeout as delay } from 'node:timers/promises';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { standInWhileSlow } from '../../../src/stores/mongodb/stand-in-count';

/**
 * The shared counter is the library's in-memory limiter behind a gate that holds its answers, as
 * a MongoDB that does not answer in time holds them; the stand-in is the limiter the production
 * adapter uses. What is checked is where each attempt ends up counted.
 */
function slowShared(points: number) {
  const counts = new RateLimiterMemory({ points, duration: 60 });
  let held: Promise<void> | undefined;
  let release = (): void => undefined;
  const shared = new Proxy(counts, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'consume' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const answer = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (held) await held;
        return answer;
      };
    },
  }) as RateLimiterAbstract;
  return {
    shared,
    counts,
    hold: () => {
      held = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

describe('rate-limit counts while MongoDB is slow', () => {
  it('counts an attempt that timed out once, in the shared counter once it answers', async () => {
    const mongo = slowShared(5);
    const standIn = new RateLimiterMemory({ points: 5, duration: 60 });
    const limiter = standInWhileSlow(mongo.shared, standIn, 20);

    await expect(limiter.consume('k')).resolves.toMatchObject({ allowed: true, remaining: 4 });
    mongo.hold();
    // Answered from memory: MongoDB has not answered within 20 ms.
    await expect(limiter.consume('k')).resolves.toMatchObject({ allowed: true, remaining: 4 });
    expect((await standIn.get('k'))?.consumedPoints).toBe(1);
    mongo.release();
    await delay(10);
    // MongoDB counted it after all: the stand-in took its own count back.
    expect((await mongo.counts.get('k'))?.consumedPoints).toBe(2);
    expect((await standIn.get('k'))?.consumedPoints).toBe(0);
    await expect(limiter.consume('k')).resolves.toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps the stand-in count of an attempt MongoDB never counted', async () => {
    const standIn = new RateLimiterMemory({ points: 1, duration: 60 });
    const failing = new Proxy(new RateLimiterMemory({ points: 1, duration: 60 }), {
      get(target, property, receiver) {
        if (property === 'consume') return async () => Promise.reject(new Error('connection refused'));
        return Reflect.get(target, property, receiver) as unknown;
      },
    }) as RateLimiterAbstract;
    const limiter = standInWhileSlow(failing, standIn, 20);
    await expect(limiter.consume('k')).resolves.toMatchObject({ allowed: true });
    await expect(limiter.consume('k')).resolves.toMatchObject({ allowed: false });
  });
});
