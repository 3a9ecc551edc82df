import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Patience {
  /** How long to wait, in ms, before failing. */
  within?: number;
  /** How long to wait between two reads, in ms. */
  every?: number;
  /** What is waited for, in the failure's words. */
  what?: string;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * The first truthy value `read` gives, for what the service does in the background (projections,
 * notifiers, the key ring): a test waits for the outcome, never for a guessed time, and fails
 * saying what it waited for. Timed with perf_hooks and timers/promises, not Date and the global
 * timers, so that it still waits in a test that fakes the clock.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  { within = 5000, every = 20, what = 'the condition' }: Patience = {},
): Promise<Truthy<T>> {
  const deadline = performance.now() + within;
  for (;;) {
    const value = await read();
    if (value) return value as Truthy<T>;
    if (performance.now() > deadline) throw new Error(`not within ${within} ms: ${what}`);
    await sleep(every);
  }
}
