/**
 * One store budget per request (REQUEST_STORE_BUDGET_MS): MongoDB black-holed costs a request at
 * most its budget and half a second, not the driver's 15 s server selection. Through the service's
 * own MongoDB adapters and the real `mongodb` driver with the production time limits, pointed at a
 * black hole (a peer that accepts and never answers): this checks the driver and the service, not a
 * real server.
 */
import { MongoClient } from 'mongodb';
import { blackHole, type BlackHole } from '../../support/black-hole';
import { logInAdmin, registerMember, startPlatform, type TestPlatform } from '../../support/platform';
import { MONGO_TIMEOUTS, MongoDocumentStore, MongoSessionStore } from '../../../src/stores/mongodb';
import type { Stores } from '../../../src/stores/ports';

const BUDGET_MS = 1_000;
let t: TestPlatform;
let hole: BlackHole;
let client: MongoClient;
let mongo = false;

/** The embedded stores, but documents and sessions on MongoDB at the black hole while `mongo` is on. */
function blackHoledWhenAsked(stores: Stores): Stores {
  const db = () => client.db();
  const documents = new Proxy(stores.documents, {
    get: (target, name: keyof Stores['documents']) => {
      const store = mongo ? new MongoDocumentStore(db()) : target;
      const value = store[name];
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(store) : value;
    },
  });
  const sessions = new Proxy(stores.sessions, {
    get: (target, name: keyof Stores['sessions']) => {
      const store = mongo ? new MongoSessionStore(db()) : target;
      return (store[name] as (...args: unknown[]) => unknown).bind(store);
    },
  });
  return { ...stores, documents, sessions };
}

beforeAll(async () => {
  hole = await blackHole();
  client = new MongoClient(`mongodb://127.0.0.1:${hole.port}/platform`, MONGO_TIMEOUTS);
  t = await startPlatform({ REQUEST_STORE_BUDGET_MS: BUDGET_MS, READ_WAIT_MS: 500 }, undefined, blackHoledWhenAsked);
});
afterAll(async () => {
  mongo = false;
  await t.close();
  await client.close();
  await hole.close();
});

async function timed(send: () => PromiseLike<{ status: number; body: { data?: { error?: string } } }>) {
  const started = Date.now();
  const res = await send();
  return { status: res.status, error: res.body.data?.error, ms: Date.now() - started };
}

it(`answers 503 store_unavailable within the budget (${BUDGET_MS} ms) and half a second when MongoDB is black-holed, not after the driver's 15 s`, async () => {
  const member = t.client();
  await registerMember(member);
  const admin = t.client();
  await logInAdmin(admin);
  mongo = true;
  for (const send of [() => member.get('/api/v1/developer/dashboard'), () => admin.get('/api/v1/credentials')]) {
    const told = await timed(send);
    expect(told).toEqual({ status: 503, error: 'store_unavailable', ms: expect.any(Number) });
    expect(told.ms).toBeLessThan(BUDGET_MS + 500);
  }
}, 30_000);
