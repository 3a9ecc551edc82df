import { MongoClient, type Db } from 'mongodb';
import { MongoDocumentStore } from './document-store';
import { MongoSessionStore } from './session-store';

export { MongoDocumentStore } from './document-store';
export { MongoSessionStore } from './session-store';

export interface MongoStores {
  db: Db;
  documents: MongoDocumentStore;
  sessions: MongoSessionStore;
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

/** Connects once; the document and session stores share the client, which close() ends. */
export async function openMongoStores(url: string, options: OpenMongoOptions = {}): Promise<MongoStores> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5_000 });
  await client.connect();
  try {
    const db = client.db(options.databaseName);
    await db.command({ ping: 1 });
    return {
      db,
      documents: new MongoDocumentStore(db),
      sessions: await MongoSessionStore.open(db),
      ping: async () => {
        await db.command({ ping: 1 });
      },
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
