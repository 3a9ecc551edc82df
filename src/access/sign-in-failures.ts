import type { Logger } from 'pino';
import { normaliseUsername } from '../member';
import { EventStore, WrongExpectedVersion } from '../stores/ports';
import { Ticker } from '../shared/ticker';
import { recordSignInFailures, SignInFailure } from './access-log';

const MINUTE_MS = 60_000;
/** How often the minutes that ended are appended. */
const FLUSH_MS = 5000;
/**
 * At most this many username and address pairs are counted at once: beyond it, failures are
 * counted under the username "*" from the address "*", so a flood of made-up names costs memory
 * and the log no more than this.
 */
export const MAX_PAIRS = 10_000;

/**
 * Failed administrator sign-ins, folded (docs/administrators.md, "Access is audited"): counted
 * in memory per username, address and minute, and appended as one AdministratorSignInFailed
 * with its count once the minute ends, so a flood of wrong passwords grows the log by one event
 * a minute per pair, not one per try. What is still counted is appended at stop.
 */
export class SignInFailures {
  private readonly pending = new Map<string, SignInFailure>();
  private readonly ticker: Ticker;

  constructor(
    private readonly events: EventStore,
    private readonly log: Logger,
  ) {
    this.ticker = new Ticker(
      () => this.flush(new Date()),
      FLUSH_MS,
      (err) => log.warn({ err }, 'could not record failed administrator sign-ins; trying again with the next flush'),
    );
  }

  start(): void {
    this.ticker.start();
  }

  /** Counts one failure of `username` from `address` at `now`. */
  count(username: string, address: string, now: Date): void {
    const minute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS).toISOString();
    const crowded = this.pending.size >= MAX_PAIRS;
    const pair = crowded ? { username: '*', address: '*' } : { username, address };
    const key = `${minute}\n${normaliseUsername(pair.username)}\n${pair.address}`;
    const folded = this.pending.get(key);
    // Past MAX_PAIRS only the pairs "*" are added, one a minute until that minute is appended.
    if (folded) folded.count += 1;
    else this.pending.set(key, { ...pair, minute, count: 1 });
  }

  /** Appends every minute that ended before `now`; without `now`, every one counted. */
  async flush(now?: Date): Promise<void> {
    for (const [key, failure] of this.pending) {
      if (now && Date.parse(failure.minute) + MINUTE_MS > now.getTime()) continue;
      this.pending.delete(key);
      const ctx = {
        actor: { kind: 'system' as const, id: 'sign-in' },
        requestId: `sign-in-failures-${failure.minute}`,
        now: now ?? new Date(),
      };
      await recordSignInFailures(this.events, failure, ctx).catch((err: unknown) => {
        if (!(err instanceof WrongExpectedVersion)) {
          this.pending.set(key, failure);
          throw err;
        }
        // Another process counted the same pair that minute and appended first: its event stands.
        this.log.warn(
          { username: failure.username, address: failure.address, minute: failure.minute, count: failure.count },
          'failed administrator sign-ins of a minute another process already recorded',
        );
      });
    }
  }

  /** Stops the timer and appends what is still counted. */
  async stop(): Promise<void> {
    await this.ticker.stop();
    await this.flush();
  }
}
