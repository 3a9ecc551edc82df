import type { Collection, Db } from 'mongodb';
import type { SessionStore } from '../ports';

interface SessionRecord {
  _id: string;
  data: Record<string, unknown>;
  expires_at: Date;
}

/**
 * HTTP sessions in a collection with a TTL index. MongoDB's TTL monitor deletes expired
 * documents only about once a minute, so reads also check the expiry themselves.
 */
export class MongoSessionStore implements SessionStore {
  private constructor(private readonly sessions: Collection<SessionRecord>) {}

  static async open(db: Db): Promise<MongoSessionStore> {
    const sessions = db.collection<SessionRecord>('sessions');
    // expireAfterSeconds 0: each document expires at the instant stored in expires_at.
    await sessions.createIndex({ expires_at: 1 }, { name: 'expires_at_ttl', expireAfterSeconds: 0 });
    return new MongoSessionStore(sessions);
  }

  async get(id: string): Promise<Record<string, unknown> | null> {
    const record = await this.sessions.findOne({ _id: id, expires_at: { $gt: new Date() } });
    return record?.data ?? null;
  }

  async set(id: string, data: Record<string, unknown>, ttlMs: number): Promise<void> {
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.sessions.updateOne({ _id: id }, { $set: { data, expires_at: expiresAt } }, { upsert: true });
  }

  async destroy(id: string): Promise<void> {
    await this.sessions.deleteOne({ _id: id });
  }

  /** Nothing to release: openMongoStores closes the client the stores share. */
  async close(): Promise<void> {}
}
