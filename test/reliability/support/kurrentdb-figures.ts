/**
 * The figures of docs/production.md ("KurrentDB outages measured with a stand-in peer"): how long
 * the adapter, with its production limits, takes to answer a read, an append and a command (a read,
 * then an append) in each outage, outside any request and within one request's store budget
 * (REQUEST_STORE_BUDGET_MS, 5 s by default), and a read and an append refused with each gRPC status.
 * `node -r ./test/support/load-ts.js test/reliability/support/kurrentdb-figures.ts` (about 2 minutes).
 * The peer is a stand-in: it checks client behaviour only, not a KurrentDB server.
 */
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../../src/stores/eventstoredb/event-store';
import { status } from '@grpc/grpc-js';
import { withStoreBudget } from '../../../src/stores/budget';
import { START } from '../../../src/stores/ports';
import { KurrentDbStandIn } from '../../support/kurrentdb-stand-in';
import { REFUSAL_STATUSES } from './kurrentdb-fixture';
import { freePort } from '../../support/service-process';
import { blackHole } from '../../support/tcp-faults';

const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: 'r', time: '2026-01-01T00:00:00.000Z' };

const REQUEST_BUDGET_MS = 5_000;

async function both(outage: string, store: EventStoreDbEventStore): Promise<void> {
  const append = () => store.append('note-1', [{ type: 'Noted', data: {}, metadata }], 'any');
  for (const [operation, run] of [
    ['read', () => store.readStream('note-1')],
    ['append', append],
    ['command (read, then append)', () => store.readStream('note-1').then(append)],
  ] as const) {
    for (const [where, within] of [
      ['outside a request', (work: () => Promise<unknown>) => work()],
      ['in a request', (work: () => Promise<unknown>) => withStoreBudget(REQUEST_BUDGET_MS, work)],
    ] as const) {
      const started = Date.now();
      const outcome = await within(run).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      process.stdout.write(`${outage}: ${operation}, ${where}: ${outcome} in ${Date.now() - started} ms\n`);
    }
  }
}

/** A read refused at once, a read failing after its first event, and an append refused, for each status. */
async function statuses(): Promise<void> {
  const peer = await KurrentDbStandIn.start();
  const store = storeOn(peer.url());
  for (let i = 0; i < 3; i++) await store.append('note-1', [{ type: 'Noted', data: {}, metadata }], 'any');
  for (const name of REFUSAL_STATUSES) {
    const code = status[name];
    for (const [what, plan, run] of [
      ['read refused', () => peer.failNext('ReadStream', { code }), () => store.readStream('note-1')],
      [
        'read failing after one event',
        () => peer.failNext('ReadStream', { code, afterEvents: 1 }),
        () => store.readStream('note-1'),
      ],
      [
        'append refused',
        () => peer.failNext('Append', { code }, { code }, { code }, { code }),
        () => store.append('note-1', [{ type: 'Noted', data: {}, metadata }], 'any'),
      ],
    ] as const) {
      plan();
      const started = Date.now();
      const outcome = await withStoreBudget<unknown>(REQUEST_BUDGET_MS, run).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      process.stdout.write(`${name}: ${what}: ${outcome} in ${Date.now() - started} ms\n`);
    }
  }
  await peer.close();
}

const storeOn = (url: string, options = {}) =>
  new EventStoreDbEventStore(KurrentDBClient.connectionString(url), options);

/** How long after a silent partition an open subscription reports the drop. */
async function partition(how: string, options: object): Promise<void> {
  const peer = await KurrentDbStandIn.start();
  const store = storeOn(peer.url(), options);
  await store.append('note-1', [{ type: 'Noted', data: {}, metadata }], 'any');
  const stop = new AbortController();
  let partitioned = 0;
  const reported = new Promise<number>((resolve) => {
    void (async () => {
      for await (const event of store.subscribeAll(START, stop.signal, {
        onDropped: () => resolve(Date.now() - partitioned),
      }))
        void event;
    })();
  });
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  partitioned = Date.now();
  peer.proxy.stall();
  process.stdout.write(`silent partition, ${how}: drop reported in ${await reported} ms\n`);
  stop.abort();
}

async function main(): Promise<void> {
  await statuses();
  await both('down at start', storeOn(`kurrentdb://127.0.0.1:${await freePort()}?tls=false`));
  const hole = await blackHole();
  await both('black hole at start', storeOn(`kurrentdb://127.0.0.1:${hole.port}?tls=false`));
  const peer = await KurrentDbStandIn.start();
  const store = storeOn(peer.url());
  await both('up', store);
  await peer.proxy.down();
  await both('down mid-traffic', store);
  await peer.proxy.up();
  await both('back up', store);
  peer.proxy.stall();
  await both('stalled', store);
  await peer.proxy.down();
  await both('stalled, then dead', store);
  await partition('liveness probe', {});
  await partition('gRPC keepalive alone', { probe: { everyMs: 2 ** 31 - 1, timeoutMs: 1 } });
  process.exit(0);
}

void main();
