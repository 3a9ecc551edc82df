import {
  RESUBSCRIBE_BACKOFF,
  STARTUP_BACKOFF,
  backoffCeiling,
  backoffDelay,
  type BackoffPolicy,
} from '../../../src/stores/eventstoredb/backoff';
import { seededRandom } from './seeded-random';

const policy: BackoffPolicy = { initialMs: 100, maxMs: 5_000, jitter: 'full' };

describe('back-off schedule', () => {
  it('doubles the ceiling from the initial delay until the cap', () => {
    expect(Array.from({ length: 9 }, (_, attempt) => backoffCeiling(attempt, policy))).toEqual([
      100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000,
    ]);
    expect(backoffCeiling(3, { ...policy, factor: 3 })).toBe(2700);
  });

  it('never lowers the ceiling and never passes the cap, however long the outage', () => {
    for (const candidate of [policy, RESUBSCRIBE_BACKOFF, STARTUP_BACKOFF, { ...policy, initialMs: 0 }]) {
      let previous = 0;
      for (let attempt = 0; attempt < 2_000; attempt++) {
        const ceiling = backoffCeiling(attempt, candidate);
        expect(Number.isFinite(ceiling)).toBe(true);
        expect(ceiling).toBeGreaterThanOrEqual(previous);
        expect(ceiling).toBeLessThanOrEqual(candidate.maxMs);
        previous = ceiling;
      }
      expect(previous).toBe(candidate.initialMs === 0 ? 0 : candidate.maxMs);
    }
  });

  it('keeps full jitter within [0, ceiling]', () => {
    const random = seededRandom(1);
    for (let attempt = 0; attempt < 5_000; attempt++) {
      const delay = backoffDelay(attempt % 12, policy, random);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(backoffCeiling(attempt % 12, policy));
    }
    expect(backoffDelay(4, policy, () => 0)).toBe(0);
    expect(backoffDelay(4, policy, () => 0.5)).toBe(800);
  });

  it('keeps equal jitter within [ceiling / 2, ceiling]', () => {
    const equal: BackoffPolicy = { ...policy, jitter: 'equal' };
    const random = seededRandom(2);
    for (let attempt = 0; attempt < 5_000; attempt++) {
      const ceiling = backoffCeiling(attempt % 12, equal);
      const delay = backoffDelay(attempt % 12, equal, random);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
    expect(backoffDelay(0, equal, () => 0)).toBe(50);
    expect(backoffDelay(20, equal, () => 0.999999)).toBeCloseTo(5_000, 0);
  });

  it('clamps a random source that strays outside [0, 1)', () => {
    expect(backoffDelay(2, policy, () => -3)).toBe(0);
    expect(backoffDelay(2, policy, () => 7)).toBe(400);
  });

  it('spreads many clients that fail at the same time', () => {
    const random = seededRandom(3);
    const delays = Array.from({ length: 1_000 }, () => backoffDelay(5, policy, random));
    const buckets = new Set(delays.map((delay) => Math.floor(delay / 320)));
    expect(buckets.size).toBe(10);
  });
});
