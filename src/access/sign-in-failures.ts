import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { normaliseUsername } from '../member';
import { EventStore, LimitPolicy, RateLimiter, WrongExpectedVersion } from '../stores/ports';
import { Ticker } from '../shared/ticker';
import { recordSignInFailures, SignInFailure } from './access-log';

const MINUTE_MS = 60_000;
/** How often the minutes that ended are appended. */
const FLUSH_MS = 5000;
/** A minute is appended this long after it ended, so that a failure another process was still counting lands in it. */
export const SETTLE_MS = 2000;
/**
 * At most this many username and address pairs are counted at once: beyond it, failures are
 * counted under the username "*" from the address "*", so a flood of made-up names costs memory
 * and the log no more than this.
 */
export const MAX_PAIRS = 10_000;

/**
 * The count every API instance adds its failures to, where the stores share counts (the SQLite
 * rate-limit file of the data directory, MongoDB): never refuses (the login limits do that), and
 * keeps a minute's count for an hour, long after it is appended.
 */
export const SIGN_IN_FAILED_COUNT: LimitPolicy = {
  name: 'admin-sign-in-failed',
  points: 1_000_000_000,
  windowSeconds: 3600,
  blockSeconds: 0,
};

/** A username typed may be a password: the shared count is keyed by its digest, as the login limits are. */
const sharedKey = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * Failed administrator sign-ins, folded (docs/administrators.md, "Access is audited"): each failure
 * is added to a count per username, address and minute in the stores, which every API instance
 * shares, and once the minute has ended one AdministratorSignInFailed with that count is appended
 * to a stream of that minute, created with `no_stream`: whichever instance appends first appends
 * the count of all of them, the others' appends are refused. A flood of wrong passwords, on any
 * number of instances, grows the log by one event a minute per pair, not one per try. This
 * process remembers which pairs it saw (and its own count, should the shared one be unreachable);
 * what it still remembers is appended at stop.
 */
export class SignInFailures {
  private readonly pending = new Map<string, SignInFailure>();
  private readonly ticker: Ticker;

  constructor(
    private readonly events: EventStore,
    private readonly log: Logger,
    private readonly shared: RateLimiter,
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

  /** Counts one failure of `username` from `address` at `now`, here and in the shared count. */
  async count(username: string, address: string, now: Date): Promise<void> {
    const minute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS).toISOString();
    const crowded = this.pending.size >= MAX_PAIRS;
    const pair = crowded ? { username: '*', address: '*' } : { username, address };
    const key = `${minute}\n${normaliseUsername(pair.username)}\n${pair.address}`;
    const folded = this.pending.get(key);
    // Past MAX_PAIRS only the pairs "*" are added, one a minute until that minute is appended.
    if (folded) folded.count += 1;
    else this.pending.set(key, { ...pair, minute, count: 1 });
    try {
      await this.shared.consume(sharedKey(key));
    } catch (err) {
      this.log.warn({ err }, 'could not add a failed administrator sign-in to the shared count; counted here only');
    }
  }

  /**
   * The minute's count of every instance: the shared count, read by adding one more and taking it
   * away; this process's own when the shared one is unreachable or lower (a count that expired).
   */
  private async total(key: string, failure: SignInFailure): Promise<number> {
    try {
      const counted = await this.shared.consume(sharedKey(key));
      return Math.max(failure.count, SIGN_IN_FAILED_COUNT.points - counted.remaining - 1);
    } catch (err) {
      this.log.warn(
        { err },
        'could not read the shared count of failed administrator sign-ins; appending this process’s',
      );
      return failure.count;
    }
  }

  /** Appends every minute that ended at least SETTLE_MS before `now`; without `now`, every one counted. */
  async flush(now?: Date): Promise<void> {
    for (const [key, failure] of this.pending) {
      if (now && Date.parse(failure.minute) + MINUTE_MS + SETTLE_MS > now.getTime()) continue;
      this.pending.delete(key);
      const ctx = {
        actor: { kind: 'system' as const, id: 'sign-in' },
        requestId: `sign-in-failures-${failure.minute}`,
        now: now ?? new Date(),
      };
      const counted = { ...failure, count: await this.total(key, failure) };
      await recordSignInFailures(this.events, counted, ctx).catch((err: unknown) => {
        if (!(err instanceof WrongExpectedVersion)) {
          this.pending.set(key, failure);
          throw err;
        }
        // Another instance saw the same pair that minute and appended first, with the shared count.
        this.log.debug(
          { minute: failure.minute, count: failure.count },
          'failed administrator sign-ins of a minute another instance already recorded',
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
