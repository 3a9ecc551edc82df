import type { Collection, Db } from 'mongodb';
import type { SessionStore } from '../ports';
import { sessionRenewal } from '../session-renewal';
import { unavailableOnOutage } from './outage';

const COLLECTION = 'sessions';

interface SessionRecord {
  _id: string;
  data: Record<string, unknown>;
  expires_at: Date;
}

/**
 * HTTP sessions in a collection with a TTL index. MongoDB's TTL monitor deletes expired
 * documents only about once a minute, so reads and renewals also check the expiry themselves.
 * Every failure to reach MongoDB is answered as StoreUnavailable (./outage.ts).
 */
export class MongoSessionStore implements SessionStore {
  private readonly sessions: Collection<SessionRecord>;

  /** Over a database whose index open() built. */
  constructor(db: Db) {
    this.sessions = db.collection<SessionRecord>(COLLECTION);
  }

  /** `indexDb`: where the index is built, a client without the socket timeout (./index.ts). */
  static async open(db: Db, indexDb: Db = db): Promise<MongoSessionStore> {
    // expireAfterSeconds 0: each document expires at the instant stored in expires_at.
    await unavailableOnOutage('index build', () =>
      indexDb.collection<SessionRecord>(COLLECTION).createIndex({ expires_at: 1 }, { name: 'expires_at_ttl', expireAfterSeconds: 0 }),
    );
    return new MongoSessionStore(db);
  }

  async get(id: string): Promise<Record<string, unknown> | null> {
    const record = await unavailableOnOutage('session read', () => this.sessions.findOne({ _id: id, expires_at: { $gt: new Date() } }));
    return record?.data ?? null;
  }

  async create(id: string, data: Record<string, unknown>, ttlMs: number): Promise<void> {
    await unavailableOnOutage('session write', () => this.sessions.insertOne({ _id: id, data, expires_at: new Date(Date.now() + ttlMs) }));
  }

  async update(id: string, data: Record<string, unknown>, ttlMs: number): Promise<boolean> {
    // Never an upsert: a session destroyed since the request read it stays gone.
    const now = Date.now();
    const result = await unavailableOnOutage('session write', () =>
      this.sessions.updateOne({ _id: id, expires_at: { $gt: new Date(now) } }, { $set: { data, expires_at: new Date(now + ttlMs) } }),
    );
    return result.matchedCount > 0;
  }

  async touch(id: string, ttlMs: number): Promise<void> {
    const now = Date.now();
    const { needed, until } = sessionRenewal(now, ttlMs);
    await unavailableOnOutage('session write', () =>
      this.sessions.updateOne({ _id: id, expires_at: { $gt: new Date(now), $lt: new Date(needed) } }, { $set: { expires_at: new Date(until) } }),
    );
  }

  async destroy(id: string): Promise<void> {
    await unavailableOnOutage('session write', () => this.sessions.deleteOne({ _id: id }));
  }

  /** Nothing to release: openMongoStores closes the client the stores share. */
  async close(): Promise<void> {}
}
