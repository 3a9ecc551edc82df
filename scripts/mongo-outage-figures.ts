/**
 * How long the MongoDB adapters take to answer StoreUnavailable with the service's own time limits
 * (MONGO_TIMEOUTS), outside a request and within one request's store budget (REQUEST_STORE_BUDGET_MS,
 * 5 s by default), with the real driver against a closed port and a black hole (test/support/black-hole.ts):
 * the figures of docs/production.md. Driver behaviour only: no MongoDB server runs here.
 *
 *   node -r ./test/support/load-ts.js scripts/mongo-outage-figures.ts
 */
import { MongoClient } from 'mongodb';
import { blackHole, closedPort } from '../test/support/black-hole';
import { MONGO_TIMEOUTS, MONGO_WRITE_CONCERN, MongoDocumentStore, MongoSessionStore } from '../src/stores/mongodb';
import { mongoRateLimits } from '../src/stores/mongodb/rate-limits';
import { withStoreBudget } from '../src/stores/budget';

/** REQUEST_STORE_BUDGET_MS's default: a request's store work ends within it. */
const REQUEST_BUDGET_MS = 5_000;

async function timed(run: () => Promise<unknown>): Promise<string> {
  const started = Date.now();
  const outcome = await run().then(() => 'answered', (error: Error) => `${error.name} (${(error.cause as Error | undefined)?.name ?? '-'})`);
  return `${((Date.now() - started) / 1000).toFixed(2)} s ${outcome}`;
}

async function figures(peer: string, port: number): Promise<void> {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/platform`, { ...MONGO_TIMEOUTS, writeConcern: MONGO_WRITE_CONCERN });
  const db = client.db();
  const documents = new MongoDocumentStore(db);
  const limiter = await mongoRateLimits(db).limiter({ name: 'figures', points: 5, windowSeconds: 60, blockSeconds: 0 });
  const rows = await Promise.all([
    ['document read (get)', () => documents.get('members', '1')],
    ['document write', () => documents.write([{ collection: 'members', id: '1', doc: { v: 1 }, position: '1' }])],
    ['session read', () => new MongoSessionStore(db).get('s')],
    ['rate-limit count', () => limiter.consume('k')],
  ].map(async ([name, run]) => {
    const operation = run as () => Promise<unknown>;
    const [alone, inRequest] = await Promise.all([timed(operation), timed(() => withStoreBudget(REQUEST_BUDGET_MS, operation))]);
    return `${peer}: ${name as string}: outside a request ${alone}; in a request ${inRequest}`;
  }));
  process.stdout.write(`${rows.join('\n')}\n`);
  await client.close();
}

async function main(): Promise<void> {
  const hole = await blackHole();
  await Promise.all([figures('closed port', await closedPort()), figures('black hole', hole.port)]);
  process.stdout.write(`black hole: ${hole.accepted()} connections accepted, ${hole.received()} bytes never answered\n`);
  await hole.close();
}

void main();
