/**
 * What the service's MongoDB adapters answer when MongoDB cannot be reached, with the real
 * `mongodb` driver against a closed port (server down) and a black hole (a peer that accepts and
 * never answers). This checks the driver's behaviour and our mapping of it only: no MongoDB server
 * runs here, so elections, step-downs and write-concern failures are covered by the classifier's
 * cases below and by the replica-set job of .github/workflows/production.yml.
 */
import { MongoClient, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { blackHole, closedPort, type BlackHole } from '../../support/black-hole';
import {
  MONGO_TIMEOUTS,
  MONGO_WRITE_CONCERN,
  MongoDocumentStore,
  MongoLeases,
  MongoSessionStore,
} from '../../../src/stores/mongodb';
import { isMongoOutage } from '../../../src/stores/mongodb/outage';
import { buildRateLimitIndexes, mongoRateLimits } from '../../../src/stores/mongodb/rate-limits';
import { StoreUnavailable } from '../../../src/stores/ports';

const SELECTION_MS = 300;
const position = '00000000000000000001';

let hole: BlackHole;
let refusedPort: number;
const clients: MongoClient[] = [];

beforeAll(async () => {
  hole = await blackHole();
  refusedPort = await closedPort();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await hole.close();
});

function dbAt(port: number) {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/platform`, {
    ...MONGO_TIMEOUTS,
    writeConcern: MONGO_WRITE_CONCERN,
    serverSelectionTimeoutMS: SELECTION_MS,
  });
  clients.push(client);
  return client.db();
}

/**
 * Every operation of the three adapters, each to be refused as StoreUnavailable; each on a client
 * of its own, so that each meets the server down as a connected client does, whatever the others do.
 */
function operations(port: number): [string, () => Promise<unknown>][] {
  const documents = () => new MongoDocumentStore(dbAt(port));
  const sessions = () => new MongoSessionStore(dbAt(port));
  const limiter = mongoRateLimits(dbAt(port)).limiter({ name: 'login', points: 5, windowSeconds: 60, blockSeconds: 0 });
  return [
    ['ensureCollections', () => documents().ensureCollections([{ name: 'members', indexes: ['status'] }])],
    ['get', () => documents().get('members', '1')],
    ['getMany', () => documents().getMany('members', ['1', '2'])],
    ['find', () => documents().find('members', { status: 'active' })],
    [
      'findInRange',
      () => documents().findInRange('members', { field: 'expires_at', upTo: '2030-01-01T00:00:00.000Z' }),
    ],
    ['count', () => documents().count('members')],
    [
      'write',
      () =>
        documents().write([{ collection: 'members', id: '1', doc: { v: 1 }, position }], {
          projection: 'members',
          position,
        }),
    ],
    ['checkpoint', () => documents().checkpoint('members')],
    ['checkpoints', () => documents().checkpoints(['members', 'credentials'])],
    ['dropCollection', () => documents().dropCollection('members')],
    [
      'replaceCollection',
      () => documents().replaceCollection('members', 'members_aside', { projection: 'members', position }),
    ],
    ['resetCheckpoint', () => documents().resetCheckpoint('members')],
    ['session index', () => MongoSessionStore.open(dbAt(port))],
    ['session get', () => sessions().get('s1')],
    ['session create', () => sessions().create('s1', { a: 1 }, 60_000)],
    ['session update', () => sessions().update('s1', { a: 2 }, 60_000)],
    ['session touch', () => sessions().touch('s1', 60_000)],
    ['session destroy', () => sessions().destroy('s1')],
    ['rate limit index', () => buildRateLimitIndexes(dbAt(port))],
    ['lease acquire', () => new MongoLeases(dbAt(port)).acquire('projector', 'a', 9000)],
    ['lease renewal', () => new MongoLeases(dbAt(port)).renew('projector', 'a', 1, 9000)],
    ['lease release', () => new MongoLeases(dbAt(port)).release('projector', 'a', 1)],
    ['lease read', () => new MongoLeases(dbAt(port)).current('projector')],
    [
      'fenced write',
      () => {
        const fenced = documents();
        fenced.fence({ lease: 'projector', token: 1 });
        return fenced.write([{ collection: 'members', id: '1', doc: { v: 1 }, position }], {
          projection: 'members',
          position,
        });
      },
    ],
    ['rate limit reset', async () => (await limiter).reset('ada')],
  ];
}

describe.each([
  ['a closed port (server down)', () => refusedPort],
  ['a black hole (accepts, never answers)', () => hole.port],
])('MongoDB at %s, through the real driver', (_peer, port) => {
  it('refuses every read and write of documents, sessions, rate limits and leases with StoreUnavailable, within the server selection time', async () => {
    const started = Date.now();
    const outcomes = await Promise.all(
      operations(port()).map(async ([name, run]) => {
        const error = await run().then(
          () => null,
          (e: unknown) => e,
        );
        return {
          name,
          error: error instanceof StoreUnavailable ? 'StoreUnavailable' : String(error),
          cause: (error as Error | null)?.cause,
        };
      }),
    );
    const elapsed = Date.now() - started;
    expect(outcomes.filter((o) => o.error !== 'StoreUnavailable')).toEqual([]);
    // What the driver raised underneath: it could not select a server.
    expect(new Set(outcomes.map((o) => (o.cause as Error).name))).toEqual(new Set(['MongoServerSelectionError']));
    expect(elapsed).toBeGreaterThanOrEqual(SELECTION_MS - 50);
    expect(elapsed).toBeLessThan(SELECTION_MS + 5000);
  });

  it('refuses a write after the driver closed its topology, which it reports wrapped in a bulk write error, with StoreUnavailable', async () => {
    const documents = new MongoDocumentStore(dbAt(port()));
    await expect(documents.get('members', '1')).rejects.toThrow(StoreUnavailable);
    const refused = await documents
      .write([{ collection: 'members', id: '1', doc: { v: 1 }, position }])
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreUnavailable);
    expect(((refused as Error).cause as Error).name).toMatch(/^Mongo(BulkWrite|TopologyClosed|ServerSelection)Error$/);
  });

  it('still counts rate-limited attempts, in this process, while MongoDB does not answer', async () => {
    const limiter = await mongoRateLimits(dbAt(port())).limiter({
      name: 'register',
      points: 2,
      windowSeconds: 60,
      blockSeconds: 0,
    });
    const counts = [await limiter.consume('ada'), await limiter.consume('ada'), await limiter.consume('ada')];
    expect(counts.map((c) => c.allowed)).toEqual([true, true, false]);
  });
});

describe('which driver failures are an outage (the errors the driver raises when a replica set fails over)', () => {
  const server = (code: number, labels: string[] = []) => {
    const error = new MongoServerError({ code, errmsg: `code ${code}`, ok: 0 });
    for (const label of labels) error.addErrorLabel(label);
    return error;
  };

  it.each([
    ['not writable primary (a step-down)', server(10107)],
    ['primary stepped down', server(189)],
    ['interrupted by a replica-set state change', server(11602)],
    ['shutting down', server(91)],
    ['maxTimeMS expired', server(50)],
    ['any error the driver labels a retryable write error', server(999_999, ['RetryableWriteError'])],
  ])('%s is an outage', (_case, error) => {
    expect(isMongoOutage(error)).toBe(true);
  });

  it('a write concern that timed out is an outage', () => {
    const error = new MongoWriteConcernError({
      writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' },
      ok: 1,
    } as never);
    expect(isMongoOutage(error)).toBe(true);
  });

  it.each([
    ['a duplicate key', server(11000)],
    ['a bad query', server(2)],
    ['an unauthorised operation', server(13)],
    ['not a driver error at all', new TypeError('x is undefined')],
  ])('%s is not: the service answers it as its own failure', (_case, error) => {
    expect(isMongoOutage(error)).toBe(false);
  });
});
