import { randomBytes } from 'node:crypto';
import { EventStoreDBClient } from '@eventstore/db-client';
import { EventStoreDbEventStore } from '../../src/stores/eventstoredb/event-store';
import { openMongoStores } from '../../src/stores/mongodb';
import { documentStoreContract } from './document-store.contract';
import { eventStoreContract } from './event-store.contract';
import { sessionStoreContract } from './session-store.contract';

/**
 * The shared contract suites against EventStoreDB and MongoDB, when a server is given. No server
 * can run on the build machines, so each suite is skipped there and says how to enable it.
 */
const eventStoreUrl = process.env.EVENTSTORE_URL?.trim() || undefined;
const mongoUrl = process.env.MONGODB_URL?.trim() || undefined;

function skipped(suite: string, variable: string, example: string): void {
  process.stdout.write(`SKIPPED ${suite} contract suite: set ${variable}=${example} to run it\n`);
}

if (!eventStoreUrl) skipped('eventstoredb', 'EVENTSTORE_URL', 'esdb://localhost:2113?tls=false');
if (!mongoUrl) {
  skipped('mongodb document store', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
  skipped('mongodb session store', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
}

(eventStoreUrl ? describe : describe.skip)('EventStoreDB event store', () => {
  eventStoreContract(async () => {
    const store = new EventStoreDbEventStore(EventStoreDBClient.connectionString(eventStoreUrl ?? ''));
    return { store, teardown: () => store.close() };
  });
});

/** A scratch database per suite, dropped afterwards, so runs never see each other's documents. */
async function scratchMongo() {
  const stores = await openMongoStores(mongoUrl ?? '', { databaseName: `contract_${randomBytes(6).toString('hex')}` });
  return {
    stores,
    teardown: async () => {
      await stores.db.dropDatabase();
      await stores.close();
    },
  };
}

(mongoUrl ? describe : describe.skip)('MongoDB document store', () => {
  documentStoreContract(async () => {
    const { stores, teardown } = await scratchMongo();
    return { store: stores.documents, teardown };
  });
});

(mongoUrl ? describe : describe.skip)('MongoDB session store', () => {
  sessionStoreContract(async () => {
    const { stores, teardown } = await scratchMongo();
    return { store: stores.sessions, teardown };
  });
});
