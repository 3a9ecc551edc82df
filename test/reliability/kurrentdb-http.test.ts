import { status } from '@grpc/grpc-js';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../src/stores/eventstoredb/event-store';
import type { Stores } from '../../src/stores/ports';
import { KurrentDbStandIn } from '../support/kurrentdb-stand-in';
import { csrfOf, startPlatform, uniqueUsername, type TestPlatform } from '../support/platform';

/**
 * Issue 32, N1, over HTTP: the whole service with its event log on the real KurrentDB client and
 * adapter (read models and sessions stay embedded, as no MongoDB runs here), against a stand-in
 * peer that checks client behaviour only, not a KurrentDB server. A command reads its stream,
 * then appends: when either cannot reach KurrentDB the answer is 503 store_unavailable with
 * Retry-After, never 500, and the service answers again once KurrentDB is back.
 */
let peer: KurrentDbStandIn;
let service: TestPlatform;

beforeEach(async () => {
  peer = await KurrentDbStandIn.start();
  const events = new EventStoreDbEventStore(KurrentDBClient.connectionString(peer.url()), {
    operationTimeoutMs: 1_000,
    retry: {
      policy: { attempts: 2, initialMs: 10, maxMs: 10, jitter: 'full' },
      random: () => 0,
      sleep: async () => undefined,
    },
  });
  const onKurrent = (stores: Stores): Stores => ({
    ...stores,
    events,
    close: async () => {
      await events.close();
      await stores.close();
    },
  });
  service = await startPlatform({}, undefined, onKurrent);
});

afterEach(async () => {
  await service.close();
  await peer.close();
});

async function register() {
  const browser = service.client();
  const token = await csrfOf(browser);
  return browser
    .post('/api/v1/developer/register')
    .set('X-CSRF-Token', token)
    .send({ username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' });
}

function expectStoreUnavailable(res: {
  status: number;
  body: { data?: { error?: string } };
  headers: Record<string, string>;
}) {
  expect({ status: res.status, error: res.body.data?.error, retryAfter: res.headers['retry-after'] }).toEqual({
    status: 503,
    error: 'store_unavailable',
    retryAfter: '5',
  });
}

describe('a command while KurrentDB is away (whole service, real client, stand-in peer)', () => {
  it('answers 503 store_unavailable when its stream cannot be read, and serves again once KurrentDB is back', async () => {
    expect((await register()).status).toBe(200);
    peer.failNext('ReadStream', { code: status.UNAVAILABLE });
    expectStoreUnavailable(await register());
    expect((await register()).status).toBe(200);
  });

  it('answers 503 store_unavailable when its append gets no answer, and the retry of a lost answer commits once', async () => {
    peer.failNext('Append', { code: status.UNAVAILABLE }, { code: status.DEADLINE_EXCEEDED });
    expectStoreUnavailable(await register());
    const written = async (answers: () => Promise<void>) => {
      const before = peer.log.all().length;
      await answers();
      return peer.log.all().length - before;
    };
    const plain = await written(async () => void expect((await register()).status).toBe(200));
    peer.failNext('Append', 'lose-answer');
    const retried = await written(async () => void expect((await register()).status).toBe(200));
    expect(retried).toBe(plain);
    const ids = peer.log.all().map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers 503 store_unavailable, not 500, while the port is closed', async () => {
    await peer.proxy.down();
    expectStoreUnavailable(await register());
    await peer.proxy.up();
    expect((await register()).status).toBe(200);
  });
});
