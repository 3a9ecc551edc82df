import { MongoClient, type Db } from 'mongodb';
import { MongoDocumentStore } from './document-store';
import { MongoSessionStore } from './session-store';
import { MongoLeases } from './leases';
import { buildIdempotencyIndexes } from './idempotency-records';
import { buildRateLimitIndexes } from './rate-limits';
import { MONGO_TIMEOUTS, MONGO_WRITE_CONCERN } from './settings';

export { MongoDocumentStore } from './document-store';
export { MongoSessionStore } from './session-store';
export { MongoLeases } from './leases';

export interface MongoStores {
  db: Db;
  documents: MongoDocumentStore;
  sessions: MongoSessionStore;
  leases: MongoLeases;
  /** Pings the server (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenMongoOptions {
  /** Database to use instead of the one named in the URL (the contract tests use a scratch one). */
  databaseName?: string;
  /** How long one connection attempt looks for a usable server; the driver's default is 30 s. */
  serverSelectionTimeoutMS?: number;
}

export { MONGO_TIMEOUTS, MONGO_WRITE_CONCERN };

/**
 * Connects once; the document and session stores share the client, which close() ends. Index
 * builds go through a second client of one connection without the socket timeout: a build on a
 * large collection may take minutes, and a socket timeout would abort it, fail the start-up and
 * start the build again next time.
 */
export async function openMongoStores(url: string, options: OpenMongoOptions = {}): Promise<MongoStores> {
  const clientOptions = {
    ...MONGO_TIMEOUTS,
    writeConcern: MONGO_WRITE_CONCERN,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? MONGO_TIMEOUTS.serverSelectionTimeoutMS,
  };
  const client = new MongoClient(url, clientOptions);
  const indexClient = new MongoClient(url, { ...clientOptions, socketTimeoutMS: 0, maxPoolSize: 1 });
  const close = async () => {
    await Promise.all([client.close(), indexClient.close()]);
  };
  try {
    const db = client.db(options.databaseName);
    const indexDb = indexClient.db(options.databaseName);
    await db.command({ ping: 1 });
    await buildRateLimitIndexes(indexDb);
    await buildIdempotencyIndexes(indexDb);
    return {
      db,
      documents: new MongoDocumentStore(db, indexDb),
      sessions: await MongoSessionStore.open(db, indexDb),
      leases: new MongoLeases(db),
      ping: async () => {
        await db.command({ ping: 1 });
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
