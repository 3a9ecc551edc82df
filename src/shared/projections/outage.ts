import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidPosition, SubscriptionObserver } from '../../stores/ports';

// First pause after a failure, doubled each time up to the ceiling: a store restarting or a
// replica-set election (about 12 s) is waited out without hammering it.
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;
/** PROJECTION_GIVE_UP_MS's default. */
export const DEFAULT_GIVE_UP_MS = 5 * 60_000;

/**
 * How long a follower of the log has been cut off from its stores, and what to do next: retry
 * after a growing pause while the outage lasts, give up once it has lasted `giveUpMs`, so that the
 * supervisor restarts the process (a fresh connection pool, a fresh subscription).
 */
export class Outage {
  private since: number | null = null;
  private failures = 0;
  private lastError: unknown = null;

  constructor(
    private readonly giveUpMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the store is cut off right now. */
  get ongoing(): boolean {
    return this.since !== null;
  }

  get error(): unknown {
    return this.lastError;
  }

  /** Records a failure; answers the pause before the next attempt. */
  failed(err: unknown): number {
    this.since ??= this.now();
    this.lastError = err;
    this.failures += 1;
    const pause = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failures - 1));
    // Jittered so that several followers cut off together do not come back in lock-step.
    return pause / 2 + Math.random() * (pause / 2);
  }

  /** The store answered: the outage, if any, is over. */
  ended(): void {
    this.since = null;
    this.failures = 0;
    this.lastError = null;
  }

  /** Whether the outage has lasted long enough to give up. */
  exhausted(): boolean {
    return this.since !== null && this.now() - this.since >= this.giveUpMs;
  }

  /** How long the outage has lasted, in ms (0 when there is none). */
  lasted(): number {
    return this.since === null ? 0 : this.now() - this.since;
  }
}

/**
 * Errors no retry can mend: a checkpoint the log does not know (another or a restored database).
 * Everything else a follower meets while reading or writing its stores is taken as transient.
 */
export function isFatal(err: unknown): boolean {
  return err instanceof InvalidPosition;
}

/** A store outage outlasted the give-up: the runner stopped following the log. */
export class StoresUnreachable extends Error {
  constructor(giveUpMs: number, cause: unknown) {
    super(`the stores stayed unreachable for ${giveUpMs} ms; giving up`, { cause });
    this.name = 'StoresUnreachable';
  }
}

/**
 * Runs `attempt` until it returns, or the signal aborts: a failure is retried after the outage's
 * pause, unless it is fatal or the outage has lasted long enough to give up.
 */
export async function keepTrying(
  outage: Outage,
  signal: AbortSignal,
  attempt: () => Promise<void>,
  on: { fatal(err: unknown): void; giveUp(err: unknown): void; retrying(err: unknown, pauseMs: number): void },
): Promise<void> {
  while (!signal.aborted) {
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) return;
      if (isFatal(err)) return on.fatal(err);
      const pause = outage.failed(err);
      if (outage.exhausted()) return on.giveUp(err);
      on.retrying(err, pause);
      await sleep(pause, undefined, { signal }).catch(() => undefined);
    }
  }
}

/**
 * The two ways a follower of the log is cut off: its subscription dropped (as the adapter tells
 * through the observer), or reading or writing a store failed (cleared once both answer again).
 */
export class StoreOutages {
  readonly log: Outage;
  readonly store: Outage;
  readonly observer: SubscriptionObserver;

  constructor(giveUpMs: number) {
    this.log = new Outage(giveUpMs);
    this.store = new Outage(giveUpMs);
    this.observer = { onLive: () => this.log.ended(), onDropped: (err) => void this.log.failed(err) };
  }

  get ongoing(): boolean {
    return this.log.ongoing || this.store.ongoing;
  }

  /** The outage that has lasted long enough to give up, if any. */
  exhausted(): Outage | undefined {
    return [this.log, this.store].find((outage) => outage.exhausted());
  }
}
