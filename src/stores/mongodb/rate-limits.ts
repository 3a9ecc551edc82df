import type { Db } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, type RateLimiterRes } from 'rate-limiter-flexible';
import type { StoreLog } from '../eventstoredb/event-store';
import type { LimitPolicy, RateLimiter, RateLimits } from '../ports';
import { libraryOptions } from '../rate-limiter';
import { standInWhileSlow } from './stand-in-count';
import { unavailableOnOutage } from './outage';

const COLLECTION = 'rate_limits';
/** A count MongoDB has not answered by then is made in memory instead: a partner call must not wait on an outage. */
const ANSWER_WITHIN_MS = 500;
const WARN_EVERY_MS = 60_000;

/**
 * Counts in this process's memory while MongoDB does not answer, and says so in the log (at most
 * once a minute): limits then hold per API instance until MongoDB answers again.
 */
class CountingInMemoryMeanwhile extends RateLimiterMemory {
  private warnedAt = -Infinity;

  constructor(
    options: ReturnType<typeof libraryOptions>,
    private readonly log: StoreLog | undefined,
  ) {
    super(options);
  }

  override consume(key: string | number, points?: number, options?: Record<string, unknown>): Promise<RateLimiterRes> {
    this.degraded();
    return super.consume(key, points, options);
  }

  private degraded(): void {
    const now = Date.now();
    if (now - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = now;
    this.log?.warn(
      { limit: this.keyPrefix },
      'MongoDB did not answer a rate-limit count in time: counting in this process memory, per instance, until it does',
    );
  }
}

function mongoCounter(db: Db, policy: LimitPolicy): RateLimiterMongo {
  return new RateLimiterMongo({
    ...libraryOptions(policy),
    storeClient: db,
    tableName: COLLECTION,
    // Built once at start-up (buildRateLimitIndexes): the library would otherwise build them in the background and only print a failure.
    disableIndexesCreation: true,
  });
}

/** The collection's indexes, the same for every limit: a unique index on the key and a TTL index on the expiry. */
export async function buildRateLimitIndexes(indexDb: Db): Promise<void> {
  await unavailableOnOutage('index build', () =>
    mongoCounter(indexDb, { name: 'indexes', points: 1, windowSeconds: 1, blockSeconds: 0 }).createIndexes(),
  );
}

/**
 * Rate limits in one MongoDB collection, so that every API instance counts the same attempts: one
 * atomic findOneAndUpdate per count. A count MongoDB does not answer is made in memory meanwhile
 * (./stand-in-count.ts); a reset it cannot take is StoreUnavailable (./outage.ts).
 */
export function mongoRateLimits(db: Db, log?: StoreLog): RateLimits {
  return {
    async limiter(policy: LimitPolicy): Promise<RateLimiter> {
      const limiter = standInWhileSlow(
        mongoCounter(db, policy),
        new CountingInMemoryMeanwhile(libraryOptions(policy), log),
        ANSWER_WITHIN_MS,
      );
      return {
        consume: (key) => limiter.consume(key),
        reset: (key) => unavailableOnOutage('rate limit reset', () => limiter.reset(key)),
        refund: (key) => limiter.refund(key),
      };
    },
  };
}
