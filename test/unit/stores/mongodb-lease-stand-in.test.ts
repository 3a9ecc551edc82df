/**
 * What the real `mongodb` driver sends for the projector lease and for fenced writes, against a
 * stand-in primary (test/support/mongodb-stand-in.ts) that records each command and answers as
 * the test says. This checks **client behaviour only**: the commands' shape and how the adapter
 * takes the answers. Whether MongoDB grants and refuses terms as it should is the lease contract's
 * (test/contract/lease.contract.ts), run against a real server when MONGODB_URL is set.
 */
import { MongoClient, type Document } from 'mongodb';
import { MONGO_TIMEOUTS, MongoDocumentStore, MongoLeases } from '../../../src/stores/mongodb';
import { LeaseLost } from '../../../src/stores/ports';
import { mongoStandIn, type Answer, type MongoStandIn } from '../../support/mongodb-stand-in';

const EXPIRES = new Date('2030-01-01T00:00:00.000Z');
let standIn: MongoStandIn;
let client: MongoClient;
let answer: Answer = () => undefined;

beforeAll(async () => {
  standIn = await mongoStandIn((command) => answer(command));
  client = new MongoClient(standIn.url, { ...MONGO_TIMEOUTS, serverSelectionTimeoutMS: 2000 });
});
afterAll(async () => {
  await client.close();
  await standIn.close();
});
beforeEach(() => {
  standIn.commands.length = 0;
  answer = () => undefined;
});

/** The command's name is its first field (a findAndModify has an `update` field too). */
const nameOf = (command: Document) => Object.keys(command)[0];
const named = (name: string) => standIn.commands.filter((c) => nameOf(c) === name);
const granted = (token: number) => ({ _id: 'projector', holder: 'a', token, expires_at: EXPIRES });

describe('the projector lease through the real driver, against a stand-in primary', () => {
  it('makes the lease document once, then asks for a term with a conditional findAndModify on the server clock, no upsert', async () => {
    answer = (c) =>
      nameOf(c) === 'findAndModify' ? { lastErrorObject: { n: 1 }, value: granted(3), ok: 1 } : undefined;
    const leases = new MongoLeases(client.db());
    expect(await leases.acquire('projector', 'a', 9000)).toEqual({
      holder: 'a',
      token: 3,
      expiresAt: EXPIRES.getTime(),
    });
    const [create] = named('update');
    expect(create).toMatchObject({
      update: 'leases',
      updates: [{ q: { _id: 'projector' }, u: { $setOnInsert: { token: 0 } }, upsert: true }],
    });
    const [ask] = named('findAndModify') as Document[];
    expect(ask).toMatchObject({ findAndModify: 'leases', new: true, query: { _id: 'projector' } });
    // MongoDB refuses $expr in an upsert's filter (code 224): this one must not be an upsert.
    expect(ask!.upsert).not.toBe(true);
    expect(JSON.stringify(ask!.query.$expr)).toContain('$$NOW');
    expect(Array.isArray(ask!.update)).toBe(true);
    expect(JSON.stringify(ask!.update)).toContain('{"$literal":"a"}');

    await leases.acquire('projector', 'a', 9000);
    expect(named('update')).toHaveLength(1);
  });

  it('answers null when the server matched no document (another holder runs a term), and when a renewal matched none', async () => {
    answer = (c) => (nameOf(c) === 'findAndModify' ? { lastErrorObject: { n: 0 }, value: null, ok: 1 } : undefined);
    const leases = new MongoLeases(client.db());
    expect(await leases.acquire('projector', 'b', 9000)).toBeNull();
    expect(await leases.renew('projector', 'a', 3, 9000)).toBeNull();
    const renewal = named('findAndModify').at(-1)!;
    expect(renewal.query).toEqual({ _id: 'projector', holder: 'a', token: 3 });
    expect(renewal.upsert).not.toBe(true);
  });

  it('takes a duplicate key on making the document as another process having made it, and goes on to ask', async () => {
    answer = (c) => {
      if (nameOf(c) === 'update')
        return { n: 0, writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000 duplicate key error' }], ok: 1 };
      if (nameOf(c) === 'findAndModify') return { lastErrorObject: { n: 1 }, value: granted(1), ok: 1 };
      return undefined;
    };
    expect(await new MongoLeases(client.db()).acquire('projector', 'a', 9000)).toMatchObject({ token: 1 });
  });
});

describe('fenced writes through the real driver, against a stand-in primary', () => {
  const write = (documents: MongoDocumentStore) =>
    documents.write([{ collection: 'members', id: '1', doc: { v: 1 }, position: '00000000000000000002' }], {
      projection: 'members',
      position: '00000000000000000002',
    });

  it('reads the lease first, and sends no write at all when it has a newer token', async () => {
    answer = (c) =>
      c.find === 'leases'
        ? { cursor: { id: BigInt(0), ns: 'platform.leases', firstBatch: [{ _id: 'projector', token: 5 }] }, ok: 1 }
        : undefined;
    const documents = new MongoDocumentStore(client.db());
    documents.fence({ lease: 'projector', token: 4 });
    await expect(write(documents)).rejects.toBeInstanceOf(LeaseLost);
    expect(standIn.commands.map(nameOf)).toEqual(['find']);
  });

  it('under the current token, guards each record and the checkpoint by it and stamps it on them', async () => {
    answer = (c) =>
      c.find === 'leases'
        ? { cursor: { id: BigInt(0), ns: 'platform.leases', firstBatch: [{ _id: 'projector', token: 4 }] }, ok: 1 }
        : nameOf(c) === 'update'
          ? { n: 1, nModified: 1, ok: 1 }
          : undefined;
    const documents = new MongoDocumentStore(client.db());
    documents.fence({ lease: 'projector', token: 4 });
    await write(documents);
    const updates = named('update');
    expect(updates.map((u) => u.update)).toEqual(['rm_members', 'checkpoints']);
    for (const update of updates) {
      const [statement] = update.updates as Document[];
      expect(JSON.stringify(statement!.q)).toContain('{"token":{"$lte":4}}');
      expect(statement!.u.$set.token).toBe(4);
    }
  });
});
