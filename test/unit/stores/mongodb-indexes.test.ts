/**
 * Every query shape the service sends to the MongoDB document store is served by an index that
 * yields its order, so that no find sorts in memory (docs/production.md shows the plans). No
 * MongoDB server runs here: the adapter runs over a stand-in for the driver's Db that records the
 * indexes it builds and the finds it sends, and the test matches the two as MongoDB's planner
 * does (equality fields, then the sort, then the range: an index whose key begins that way).
 */
import type { Db } from 'mongodb';
import { PROJECTIONS } from '../../../src/compose';
import { credentialsProjection } from '../../../src/credential/projections/credentials';
import { USAGE_COLLECTION } from '../../../src/credential/usage/ledger';
import { membersProjection } from '../../../src/member/projection';
import { scopeRequestsProjection } from '../../../src/credential/projections/scope-requests';
import { DEAD_LETTERS } from '../../../src/shared/projections/dead-letters';
import { MongoDocumentStore } from '../../../src/stores/mongodb';
import type { CollectionSpec, Scalar, StringRange } from '../../../src/stores/ports';
import { DELIVERIES } from '../../../src/webhook/deliveries';

type Key = Record<string, number>;
interface SentFind {
  collection: string;
  filter: Record<string, unknown>;
  sort: Key;
}

function recordingDb() {
  const indexes = new Map<string, Key[]>();
  const finds: SentFind[] = [];
  const db = {
    collection: (name: string) => ({
      collectionName: name,
      createIndex: async (key: Key) => {
        indexes.set(name, [...(indexes.get(name) ?? []), key]);
      },
      dropIndex: async () => undefined,
      find: (filter: Record<string, unknown>, options: { sort: Key }) => {
        finds.push({ collection: name, filter, sort: options.sort });
        return { toArray: async () => [] };
      },
    }),
  } as unknown as Db;
  return { db, indexes, finds };
}

/** Whether one of the indexes yields the find's matches in its sort order without scanning past them. */
function served(find: SentFind, indexes: Key[]): boolean {
  const equality = Object.entries(find.filter)
    .filter(([field, value]) => field !== 'doc' && (value === null || typeof value !== 'object'))
    .map(([field]) => field);
  const ranged = Object.entries(find.filter)
    .filter(([field, value]) => field !== 'doc' && value !== null && typeof value === 'object')
    .map(([field]) => field);
  const sort = Object.keys(find.sort);
  return indexes.some((index) => {
    const key = Object.keys(index);
    const lead = key.slice(0, equality.length);
    if (!equality.every((field) => lead.includes(field))) return false;
    const rest = key.slice(equality.length);
    // The sort follows the equality fields; a range is served when it is the sort's own first field.
    return sort.every((field, i) => rest[i] === field) && ranged.every((field) => sort[0] === field);
  });
}

const SHAPES: [CollectionSpec, Record<string, Scalar>][] = [
  [membersProjection.collection, { username_key: 'ada' }],
  [credentialsProjection.collection, { status: 'pending' }],
  [scopeRequestsProjection.collection, { status: 'pending' }],
  [DELIVERIES, { webhook_id: 'w1' }],
  [DELIVERIES, { status: 'pending' }],
  [DEAD_LETTERS, { resolved_at: null }],
  [USAGE_COLLECTION, { member_id: 7 }],
];

describe('the MongoDB document store indexes', () => {
  it.each(SHAPES.map(([spec, where]) => [`${spec.name} where ${JSON.stringify(where)}`, spec, where] as const))(
    'serve the find of %s in id order',
    async (_name, spec, where) => {
      const { db, indexes, finds } = recordingDb();
      const store = new MongoDocumentStore(db);
      await store.ensureCollections([spec]);
      await store.find(spec.name, where);
      expect(finds).toHaveLength(1);
      expect(served(finds[0]!, indexes.get(`rm_${spec.name}`) ?? [])).toBe(true);
    },
  );

  it.each(PROJECTIONS.map((p) => [p.collection.name, p.collection] as const))(
    'serve a whole-collection find of %s in id order',
    async (_name, spec) => {
      const { db, indexes, finds } = recordingDb();
      const store = new MongoDocumentStore(db);
      await store.ensureCollections([spec]);
      await store.find(spec.name, {});
      expect(served(finds[0]!, indexes.get(`rm_${spec.name}`) ?? [])).toBe(true);
    },
  );

  it("serve the expiry watch's range of expiries, in expiry order", async () => {
    const { db, indexes, finds } = recordingDb();
    const store = new MongoDocumentStore(db);
    await store.ensureCollections([credentialsProjection.collection]);
    const range: StringRange = {
      field: 'expires_at',
      after: '2030-01-01T00:00:00.000Z',
      upTo: '2030-01-02T00:00:00.000Z',
    };
    await store.findInRange(credentialsProjection.collection.name, range);
    expect(served(finds[0]!, indexes.get('rm_credentials') ?? [])).toBe(true);
  });

  it('leave a find on a field its collection spec does not name unserved: the check can tell', async () => {
    const { db, indexes, finds } = recordingDb();
    const store = new MongoDocumentStore(db);
    await store.ensureCollections([membersProjection.collection]);
    await store.find(membersProjection.collection.name, { email: 'ada@example.com' });
    expect(served(finds[0]!, indexes.get('rm_members') ?? [])).toBe(false);
  });
});
