import { randomBytes } from 'node:crypto';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../src/stores/eventstoredb/event-store';
import { openMongoStores } from '../../src/stores/mongodb';
import { mongoRateLimits } from '../../src/stores/mongodb/rate-limits';
import { documentStoreContract } from './document-store.contract';
import { eventStoreContract } from './event-store.contract';
import { idempotencyContract } from './idempotency.contract';
import { leaseContract } from './lease.contract';
import { nameClaimsContract } from './name-claims.contract';
import { rateLimitsContract } from './rate-limits.contract';
import { sessionStoreContract } from './session-store.contract';

/**
 * The shared contract suites against EventStoreDB and MongoDB, when a server is given. No server
 * can run on the build machines, so each suite is skipped there and says how to enable it.
 */
const eventStoreUrl = process.env.EVENTSTORE_URL?.trim() || undefined;
const mongoUrl = process.env.MONGODB_URL?.trim() || undefined;

function skipped(suite: string, variable: string, example: string): void {
  process.stdout.write(
    `SKIPPED ${suite} contract suite: ${variable} is not set, so there is no server to run it against; ` +
      `set ${variable}=${example} to run it\n`,
  );
}

if (!eventStoreUrl) skipped('kurrentdb', 'EVENTSTORE_URL', 'kurrentdb://localhost:2113?tls=false');
if (!mongoUrl) {
  skipped('mongodb document store', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
  skipped('mongodb idempotency records', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
  skipped('mongodb session store', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
  skipped('mongodb leases and fenced writes', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
  skipped('mongodb rate limits', 'MONGODB_URL', 'mongodb://localhost:27017/platform');
}

(eventStoreUrl ? describe : describe.skip)('KurrentDB event store', () => {
  eventStoreContract(async () => {
    const store = new EventStoreDbEventStore(KurrentDBClient.connectionString(eventStoreUrl ?? ''));
    return { store, teardown: () => store.close() };
  });
});

(eventStoreUrl ? describe : describe.skip)('KurrentDB event store: names claimed', () => {
  nameClaimsContract(async () => {
    const store = new EventStoreDbEventStore(KurrentDBClient.connectionString(eventStoreUrl ?? ''));
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

  it('has every write acknowledged from the journal of a majority, not from memory', async () => {
    const { stores, teardown } = await scratchMongo();
    try {
      expect(stores.db.writeConcern).toMatchObject({ w: 'majority', journal: true });
    } finally {
      await teardown();
    }
  });
});

(mongoUrl ? describe : describe.skip)('MongoDB idempotency records', () => {
  idempotencyContract(async () => {
    const { stores, teardown } = await scratchMongo();
    return { store: stores.documents, teardown };
  });
});

(mongoUrl ? describe : describe.skip)('MongoDB leases and fenced writes, two connections to one database', () => {
  leaseContract(async () => {
    const one = await scratchMongo();
    const other = await openMongoStores(mongoUrl ?? '', { databaseName: one.stores.db.databaseName });
    return {
      store: { one: one.stores, other },
      teardown: async () => {
        await other.close();
        await one.teardown();
      },
    };
  });
});

(mongoUrl ? describe : describe.skip)('MongoDB session store', () => {
  sessionStoreContract(async () => {
    const { stores, teardown } = await scratchMongo();
    return { store: stores.sessions, teardown };
  });
});

(mongoUrl ? describe : describe.skip)('MongoDB rate limits, two connections to one database', () => {
  rateLimitsContract(async () => {
    const one = await scratchMongo();
    const other = await openMongoStores(mongoUrl ?? '', { databaseName: one.stores.db.databaseName });
    return {
      store: { one: mongoRateLimits(one.stores.db), other: mongoRateLimits(other.db) },
      teardown: async () => {
        await other.close();
        await one.teardown();
      },
    };
  });

  it('keeps counting, in memory and with a warning, while MongoDB does not answer', async () => {
    const scratch = await scratchMongo();
    // A connection of its own, closed to cut the limiter off; the scratch one drops the database.
    const cut = await openMongoStores(mongoUrl ?? '', { databaseName: scratch.stores.db.databaseName });
    const warnings: string[] = [];
    try {
      const limiter = await mongoRateLimits(cut.db, { warn: (_obj, msg) => warnings.push(msg) }).limiter({
        name: 'outage',
        points: 1,
        windowSeconds: 60,
        blockSeconds: 0,
      });
      await cut.close();
      expect(await limiter.consume('k')).toMatchObject({ allowed: true });
      expect(await limiter.consume('k')).toMatchObject({ allowed: false });
      expect(warnings).toEqual([expect.stringContaining('MongoDB did not answer')]);
    } finally {
      await cut.close();
      await scratch.teardown();
    }
  });
});
