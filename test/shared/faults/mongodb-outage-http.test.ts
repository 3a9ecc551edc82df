/**
 * What a client is answered when MongoDB is out of reach, through the service's own MongoDB
 * adapters, the real `mongodb` driver and the HTTP error mapping. No MongoDB server can run here:
 * the service starts on the embedded stores, then its documents, sessions or rate limits are
 * switched to the MongoDB adapters pointed at a closed port (server down) or a black hole (a peer
 * that accepts and never answers). This checks the driver's behaviour and the service's answers
 * to it, not a real server's; the replica-set job of .github/workflows/production.yml runs a real one.
 */
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { blackHole, closedPort, type BlackHole } from '../../support/black-hole';
import { csrfOf, logInAdmin, registerMember, startPlatform, type TestPlatform } from '../../support/platform';
import { MONGO_TIMEOUTS, MongoDocumentStore, MongoSessionStore } from '../../../src/stores/mongodb';
import { mongoRateLimits } from '../../../src/stores/mongodb/rate-limits';
import type { LimitPolicy, RateLimiter, RateLimits, Stores } from '../../../src/stores/ports';

jest.setTimeout(20_000);

/** An object whose calls go to whichever implementation is in place now. */
function switchable<T extends object>(initial: T): { proxy: T; use(next: T): void } {
  let current = initial;
  const proxy = new Proxy(initial, {
    get: (_target, name) => {
      const value = (current as Record<string | symbol, unknown>)[name];
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
  return { proxy, use: (next) => (current = next) };
}

/** Rate limits whose every limiter, made at start-up, can be moved to other rate limits later. */
function switchableRateLimits(initial: RateLimits) {
  const limiters: { policy: LimitPolicy; limiter: ReturnType<typeof switchable<RateLimiter>> }[] = [];
  const rateLimits: RateLimits = {
    async limiter(policy) {
      const limiter = switchable(await initial.limiter(policy));
      limiters.push({ policy, limiter });
      return limiter.proxy;
    },
  };
  return {
    rateLimits,
    async use(next: RateLimits) {
      for (const { policy, limiter } of limiters) limiter.use(await next.limiter(policy));
    },
  };
}

let t: TestPlatform;
let hole: BlackHole;
let embedded: Stores;
let documents: ReturnType<typeof switchable<Stores['documents']>>;
let sessions: ReturnType<typeof switchable<Stores['sessions']>>;
let rateLimits: ReturnType<typeof switchableRateLimits>;
const clients: MongoClient[] = [];
const unhandled: unknown[] = [];
const noteUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', noteUnhandled);
  hole = await blackHole();
  t = await startPlatform({ READ_WAIT_MS: 500 }, undefined, (stores) => {
    embedded = stores;
    documents = switchable(stores.documents);
    sessions = switchable(stores.sessions);
    rateLimits = switchableRateLimits(stores.rateLimits);
    return { ...stores, documents: documents.proxy, sessions: sessions.proxy, rateLimits: rateLimits.rateLimits };
  });
});
afterAll(async () => {
  documents.use(embedded.documents);
  sessions.use(embedded.sessions);
  await rateLimits.use(embedded.rateLimits);
  await t.close();
  await Promise.all(clients.map((client) => client.close()));
  await hole.close();
  process.off('unhandledRejection', noteUnhandled);
});
afterEach(async () => {
  documents.use(embedded.documents);
  sessions.use(embedded.sessions);
  await rateLimits.use(embedded.rateLimits);
});

/** MongoDB at a peer that is not there, as the service connects to it, with a short server selection. */
function mongoAt(port: number) {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/platform`, {
    ...MONGO_TIMEOUTS,
    serverSelectionTimeoutMS: 300,
  });
  clients.push(client);
  return client.db();
}

function expectStoreUnavailable(res: request.Response): void {
  expect({ status: res.status, error: res.body.data?.error }).toEqual({ status: 503, error: 'store_unavailable' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe.each([
  ['a closed port (server down)', async () => closedPort()],
  ['a black hole (accepts, never answers)', async () => hole.port],
])('MongoDB at %s', (_peer, portOf) => {
  it('answers a request whose session cannot be read or created 503 store_unavailable, not 500', async () => {
    const member = t.client();
    await registerMember(member);
    const fresh = t.client();
    sessions.use(new MongoSessionStore(mongoAt(await portOf())));

    expectStoreUnavailable(await member.get('/api/v1/developer/dashboard'));
    expectStoreUnavailable(await fresh.get('/api/v1/developer/session'));
  });

  it('answers reads of the read models 503 store_unavailable, for members and administrators', async () => {
    const member = t.client();
    await registerMember(member);
    const admin = t.client();
    await logInAdmin(admin);
    documents.use(new MongoDocumentStore(mongoAt(await portOf())));

    expectStoreUnavailable(await member.get('/api/v1/developer/dashboard'));
    expectStoreUnavailable(await admin.get('/api/v1/credentials'));
  });

  it('counts login attempts in memory meanwhile, and answers a login whose limit cannot be reset 503 store_unavailable', async () => {
    const registering = t.client();
    const member = await registerMember(registering);
    await rateLimits.use(mongoRateLimits(mongoAt(await portOf())));

    const client = t.client();
    const token = await csrfOf(client);
    const wrong = await client
      .post('/api/v1/developer/login')
      .set('X-CSRF-Token', token)
      .send({ username: member.username, password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    const login = { username: member.username, password: member.password };
    expectStoreUnavailable(
      await client
        .post('/api/v1/developer/login')
        .set('X-CSRF-Token', await csrfOf(client))
        .send(login),
    );
  });

  it('never leaves a rejection unhandled', () => {
    expect(unhandled).toEqual([]);
  });
});
