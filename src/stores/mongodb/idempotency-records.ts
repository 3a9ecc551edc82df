import { MongoServerError, type Collection, type Db } from 'mongodb';
import type { IdempotencyRecord, IdempotencyRecords, KeptAnswer } from '../ports';
import { unavailableOnOutage } from './outage';

const COLLECTION = 'idempotency_keys';
const DUPLICATE_KEY = 11000;

interface Kept {
  _id: string;
  fingerprint: string;
  /** The request that holds the key, while it is in flight. */
  holder?: string;
  answer?: KeptAnswer;
  expires_at: Date;
}

/** The TTL index that deletes a record once expired (MongoDB's monitor runs about once a minute; reads check the expiry too). */
export async function buildIdempotencyIndexes(indexDb: Db): Promise<void> {
  await unavailableOnOutage('index build', () =>
    indexDb
      .collection<Kept>(COLLECTION)
      .createIndex({ expires_at: 1 }, { name: 'expires_at_ttl', expireAfterSeconds: 0 }),
  );
}

/**
 * Idempotency records in MongoDB: the key is the record's _id, so of two requests taking it at once
 * one insert wins and the other meets a duplicate key. Every failure to reach MongoDB is answered as
 * StoreUnavailable (./outage.ts).
 */
export class MongoIdempotencyRecords implements IdempotencyRecords {
  private readonly records: Collection<Kept>;

  constructor(db: Db) {
    this.records = db.collection<Kept>(COLLECTION);
  }

  begin(key: string, holder: string, fingerprint: string, leaseMs: number): Promise<IdempotencyRecord | null> {
    return unavailableOnOutage('idempotency record', () => this.take(key, holder, fingerprint, leaseMs));
  }

  private async take(
    key: string,
    holder: string,
    fingerprint: string,
    leaseMs: number,
  ): Promise<IdempotencyRecord | null> {
    for (;;) {
      const now = new Date();
      const record = { fingerprint, holder, expires_at: new Date(now.getTime() + leaseMs) };
      try {
        await this.records.insertOne({ _id: key, ...record });
        return null;
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
      }
      const expired = await this.records.updateOne(
        { _id: key, expires_at: { $lte: now } },
        { $set: record, $unset: { answer: '' } },
      );
      if (expired.modifiedCount > 0) return null;
      const found = await this.records.findOne({ _id: key, expires_at: { $gt: now } });
      // Released or expired since the insert failed: the key is free again, for this request to take.
      if (!found) continue;
      return found.answer
        ? { state: 'answered', fingerprint: found.fingerprint, answer: found.answer }
        : { state: 'in_flight', fingerprint: found.fingerprint };
    }
  }

  async answered(key: string, holder: string, answer: KeptAnswer, ttlMs: number): Promise<void> {
    await unavailableOnOutage('idempotency record', () =>
      this.records.updateOne(
        { _id: key, holder },
        { $set: { answer, expires_at: new Date(Date.now() + ttlMs) }, $unset: { holder: '' } },
      ),
    );
  }

  async release(key: string, holder: string): Promise<void> {
    await unavailableOnOutage('idempotency record', () => this.records.deleteOne({ _id: key, holder }));
  }
}
