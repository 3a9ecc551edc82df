import type { Collection, Db } from 'mongodb';
import type { SessionIdentity, SessionMove, SessionStore } from '../ports';
import { sessionRenewal } from '../session-renewal';
import { unavailableOnOutage } from './outage';

const COLLECTION = 'sessions';

interface SessionRecord {
  _id: string;
  data: Record<string, unknown>;
  expires_at: Date;
  /** Counts the writes of the data: a move applies only to the version it read. */
  version?: number;
  /** The id a login or logout moved the session to; the requests still running on this one follow it. */
  moved_to?: string;
}

// Not moved (the field is absent); `$exists` rather than null, which the driver's types refuse.
const LIVE = { moved_to: { $exists: false } };

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
      indexDb
        .collection<SessionRecord>(COLLECTION)
        .createIndex({ expires_at: 1 }, { name: 'expires_at_ttl', expireAfterSeconds: 0 }),
    );
    return new MongoSessionStore(db);
  }

  async get(id: string): Promise<Record<string, unknown> | null> {
    const record = await unavailableOnOutage('session read', () =>
      this.sessions.findOne({ _id: id, expires_at: { $gt: new Date() }, ...LIVE }),
    );
    return record?.data ?? null;
  }

  async create(id: string, data: Record<string, unknown>, ttlMs: number): Promise<void> {
    await unavailableOnOutage('session write', () =>
      this.sessions.insertOne({ _id: id, data, expires_at: new Date(Date.now() + ttlMs), version: 0 }),
    );
  }

  async update(id: string, data: Record<string, unknown>, ttlMs: number): Promise<boolean> {
    // Never an upsert: a session destroyed since the request read it stays gone.
    const now = Date.now();
    const result = await unavailableOnOutage('session write', () =>
      this.sessions.updateOne(
        { _id: id, expires_at: { $gt: new Date(now) }, ...LIVE },
        { $set: { data, expires_at: new Date(now + ttlMs) }, $inc: { version: 1 } },
      ),
    );
    return result.matchedCount > 0;
  }

  touch(id: string, ttlMs: number): Promise<boolean> {
    return unavailableOnOutage('session write', () => this.renew(id, ttlMs));
  }

  private async renew(id: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const { needed, until } = sessionRenewal(now, ttlMs);
    // One round trip in the common case, as the guarded update it replaces cost: a write only when due.
    const live = await this.sessions.findOne(
      { _id: id, expires_at: { $gt: new Date(now) }, ...LIVE },
      { projection: { expires_at: 1 } },
    );
    if (!live) return false;
    if (live.expires_at.getTime() < needed)
      await this.sessions.updateOne(
        { _id: id, expires_at: { $gt: new Date(now), $lt: new Date(needed) }, ...LIVE },
        { $set: { expires_at: new Date(until) } },
      );
    return true;
  }

  /**
   * The new session is written first, then the old one is marked moved if its version is still
   * the one the data was made from; if another write got there first, all again.
   */
  regenerate(from: string, to: string, move: SessionMove): Promise<Record<string, unknown>> {
    return unavailableOnOutage('session write', () => this.move(from, to, move));
  }

  private async move(from: string, to: string, move: SessionMove): Promise<Record<string, unknown>> {
    for (;;) {
      const old = await this.sessions.findOne({ _id: from, expires_at: { $gt: new Date() } });
      const live = old !== null && !old.moved_to;
      const data = move.change(live ? old.data : null);
      await this.sessions.replaceOne(
        { _id: to },
        { data, expires_at: new Date(Date.now() + move.ttlMs(data)), version: 0 },
        { upsert: true },
      );
      if (!live) {
        if (old?.moved_to && move.successor) await this.changeSuccessor(old.moved_to, move.successor);
        return data;
      }
      const moved = await this.sessions.updateOne(
        { _id: from, ...sameVersion(old.version), ...LIVE },
        { $set: { moved_to: to, data: {} }, $inc: { version: 1 } },
      );
      if (moved.matchedCount > 0) return data;
    }
  }

  /** Follows the moves from `id` to the live session at their end, and changes its data there. */
  private async changeSuccessor(id: string, successor: NonNullable<SessionMove['successor']>): Promise<void> {
    for (;;) {
      const record = await this.sessions.findOne({ _id: id, expires_at: { $gt: new Date() } });
      if (!record) return;
      if (record.moved_to) return this.changeSuccessor(record.moved_to, successor);
      const changed = await this.sessions.updateOne(
        { _id: id, ...sameVersion(record.version), ...LIVE },
        { $set: { data: successor(record.data) }, $inc: { version: 1 } },
      );
      if (changed.matchedCount > 0) return;
    }
  }

  async destroy(id: string): Promise<void> {
    await unavailableOnOutage('session write', () => this.sessions.deleteOne({ _id: id }));
  }

  async endAllOf({ side, id }: SessionIdentity, except?: string): Promise<number> {
    const holding = { [`data.${side}.id`]: id, ...(except === undefined ? {} : { _id: { $ne: except } }) };
    const result = await unavailableOnOutage('session write', () => this.sessions.deleteMany(holding));
    return result.deletedCount;
  }

  /** Nothing to release: openMongoStores closes the client the stores share. */
  async close(): Promise<void> {}
}

/** Records written before versions were counted have none: they match as long as nobody wrote one. */
function sameVersion(version: number | undefined) {
  return version === undefined ? { version: { $exists: false } } : { version };
}
