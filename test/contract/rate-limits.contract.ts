import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { LimitPolicy, RateLimits } from '../../src/stores/ports';
import { StoreFixture, useStore } from './fixture';

/** Two openings of the same stores, as two API instances (or a CLI beside the API) have them. */
export interface TwoOpenings {
  one: RateLimits;
  other: RateLimits;
}

/** A policy of its own per test: counts persist in the store across tests. */
const policy = (overrides: Partial<LimitPolicy> = {}): LimitPolicy => ({
  name: `contract-${randomUUID()}`,
  points: 3,
  windowSeconds: 60,
  blockSeconds: 0,
  ...overrides,
});

/** The rate-limit port for shared limits (logins): atomic counts, blocks and resets, seen by every opening. */
export function rateLimitsContract(open: () => Promise<StoreFixture<TwoOpenings>>): void {
  const stores = useStore(open);

  it('admits a key up to its points, then refuses it until the window ends', async () => {
    const limiter = await stores().one.limiter(policy());
    expect(await limiter.consume('k')).toEqual({ allowed: true, remaining: 2, resetMs: expect.any(Number) });
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await limiter.consume('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetMs).toBeGreaterThan(50_000);
    expect(refused.resetMs).toBeLessThanOrEqual(60_000);
  });

  it('counts each key and each policy name apart', async () => {
    const first = policy({ points: 1 });
    const limiter = await stores().one.limiter(first);
    const sameKeysOtherName = await stores().one.limiter(policy({ points: 1 }));
    expect(await limiter.consume('a')).toMatchObject({ allowed: true });
    expect(await limiter.consume('a')).toMatchObject({ allowed: false });
    expect(await limiter.consume('b')).toMatchObject({ allowed: true });
    expect(await sameKeysOtherName.consume('a')).toMatchObject({ allowed: true });
  });

  it('blocks a key that went over for blockSeconds, and reset lifts the block', async () => {
    const limiter = await stores().one.limiter(policy({ points: 2, blockSeconds: 900 }));
    await limiter.consume('k');
    await limiter.consume('k');
    const blocked = await limiter.consume('k');
    expect(blocked).toMatchObject({ allowed: false });
    expect(blocked.resetMs).toBeGreaterThan(890_000);
    expect(blocked.resetMs).toBeLessThanOrEqual(900_000);
    expect(await limiter.consume('k')).toMatchObject({ allowed: false });
    await limiter.reset('k');
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('resets a key it never counted without complaint', async () => {
    const limiter = await stores().one.limiter(policy());
    await expect(limiter.reset(randomUUID())).resolves.toBeUndefined();
  });

  it('counts again from the start once the window has passed', async () => {
    const limiter = await stores().one.limiter(policy({ points: 1, windowSeconds: 1 }));
    expect(await limiter.consume('k')).toMatchObject({ allowed: true });
    const refused = await limiter.consume('k');
    expect(refused).toMatchObject({ allowed: false });
    await delay(refused.resetMs + 50);
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('shares counts, blocks and resets between two openings of the stores', async () => {
    const shared = policy({ points: 2, blockSeconds: 900 });
    const [here, there] = await Promise.all([stores().one.limiter(shared), stores().other.limiter(shared)]);
    expect(await here.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await there.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
    expect(await here.consume('k')).toMatchObject({ allowed: false });
    expect(await there.consume('k')).toMatchObject({ allowed: false });
    await there.reset('k');
    expect(await here.consume('k')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('admits exactly its points of many simultaneous attempts through both openings', async () => {
    const shared = policy({ points: 5, blockSeconds: 900 });
    const [here, there] = await Promise.all([stores().one.limiter(shared), stores().other.limiter(shared)]);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? here : there).consume('k')));
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
  });
}
