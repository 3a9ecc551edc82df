import { MongoServerError, type Collection, type Db } from 'mongodb';
import { LeaseLost, type Fence, type LeaseTerm, type Leases } from '../lease-port';
import { unavailableOnOutage } from './outage';

export interface LeaseRecord {
  _id: string;
  holder: string;
  token: number;
  expires_at: Date;
}

export const LEASES = 'leases';
const DUPLICATE_KEY = 11000;

const termOf = (record: LeaseRecord): LeaseTerm => ({
  holder: record.holder,
  token: record.token,
  expiresAt: record.expires_at.getTime(),
});

/** A term that is over, by the server's clock. */
const OVER = { $lte: ['$expires_at', '$$NOW'] };

/**
 * Leases in the `leases` collection, one document per lease: its holder, its token and when its
 * term ends. Each step is one findOneAndUpdate, atomic on its document, and every time is the
 * server's ($$NOW), so projectors on hosts whose clocks disagree still agree on when a term is over.
 * A holder's own string goes in as a literal: a name beginning with $ is not read as a field.
 */
export class MongoLeases implements Leases {
  /** The leases whose document this process knows exists. */
  private readonly created = new Set<string>();

  constructor(private readonly db: Db) {}

  async acquire(lease: string, holder: string, ttlMs: number): Promise<LeaseTerm | null> {
    const mine = { $literal: holder };
    const renewing = { $and: [{ $eq: ['$holder', mine] }, { $not: [OVER] }] };
    await this.create(lease);
    const record = await unavailableOnOutage('lease acquire', () =>
      this.collection().findOneAndUpdate(
        // Over, or already this holder's. $expr, for $$NOW: MongoDB refuses it in an upsert's filter (code 224), hence create().
        { _id: lease, $expr: { $or: [OVER, { $eq: ['$holder', mine] }] } },
        [
          {
            $set: {
              token: { $cond: [renewing, '$token', { $add: [{ $ifNull: ['$token', 0] }, 1] }] },
              holder: mine,
              expires_at: { $add: ['$$NOW', ttlMs] },
            },
          },
        ],
        { returnDocument: 'after' },
      ),
    );
    return record ? termOf(record) : null;
  }

  /**
   * Makes the lease's document, free (token 0, a term over since 1970), unless it exists: the
   * first acquire of several processes at once then finds one document to race on.
   */
  private async create(lease: string): Promise<void> {
    if (this.created.has(lease)) return;
    await unavailableOnOutage('lease acquire', async () => {
      try {
        await this.collection().updateOne(
          { _id: lease },
          { $setOnInsert: { holder: '', token: 0, expires_at: new Date(0) } },
          { upsert: true },
        );
      } catch (error) {
        // Another process inserted it at the same moment: it exists, which is all this asks.
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      }
    });
    this.created.add(lease);
  }

  async renew(lease: string, holder: string, token: number, ttlMs: number): Promise<LeaseTerm | null> {
    const record = await unavailableOnOutage('lease renewal', () =>
      this.collection().findOneAndUpdate(
        { _id: lease, holder, token },
        [{ $set: { expires_at: { $add: ['$$NOW', ttlMs] } } }],
        { returnDocument: 'after' },
      ),
    );
    return record ? termOf(record) : null;
  }

  async release(lease: string, holder: string, token: number): Promise<void> {
    await unavailableOnOutage('lease release', () =>
      this.collection().updateOne({ _id: lease, holder, token }, [{ $set: { expires_at: '$$NOW' } }]),
    );
  }

  async current(lease: string): Promise<LeaseTerm | null> {
    const record = await unavailableOnOutage('lease read', () => this.collection().findOne({ _id: lease }));
    // Token 0: made free by create(), never held.
    return record && record.token > 0 ? termOf(record) : null;
  }

  private collection(): Collection<LeaseRecord> {
    return this.db.collection<LeaseRecord>(LEASES);
  }
}

/**
 * Refuses with LeaseLost when the fence's lease has a newer token. MongoDB has no transaction
 * across the lease and a read model here, so this read comes first and each fenced record also
 * keeps the token it was written with (guarded-writes.ts): a deposed writer that passed this read
 * just before a new term began is still refused on every record the new holder has written since.
 */
export async function checkFence(db: Db, fence: Fence | null): Promise<void> {
  if (!fence) return;
  const record = await db
    .collection<LeaseRecord>(LEASES)
    .findOne({ _id: fence.lease }, { projection: { token: 1 }, maxTimeMS: 10_000 });
  if (record && record.token > fence.token) throw new LeaseLost(fence, record.token);
}
