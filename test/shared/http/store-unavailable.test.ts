import { csrfOf, expectRefusal, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';
import { StoreUnavailable, StreamDeleted, Stores } from '../../../src/stores/ports';

let failWith: Error | null = null;
let t: TestPlatform;

/** The event store's appends fail with the adapter's own error while `failWith` is set. */
function failingAppends(stores: Stores): Stores {
  const events = stores.events;
  return {
    ...stores,
    events: {
      append: (stream, list, expected) => (failWith ? Promise.reject(failWith) : events.append(stream, list, expected)),
      readStream: (stream, options) => events.readStream(stream, options),
      readAll: (from, max) => events.readAll(from, max),
      headPosition: () => events.headPosition(),
      subscribeAll: (from, signal, observer) => events.subscribeAll(from, signal, observer),
      close: () => events.close(),
    },
  };
}

beforeAll(async () => {
  t = await startPlatform({}, undefined, failingAppends);
});
afterAll(() => t.close());
afterEach(() => (failWith = null));

async function register() {
  const client = t.client();
  const token = await csrfOf(client);
  return () => client.post('/api/v1/developer/register').set('X-CSRF-Token', token).send({ username: uniqueUsername(), password: 'secret1', email: 'd@example.com' });
}

it('a store that cannot be reached answers 503 store_unavailable with Retry-After, not a 500', async () => {
  const send = await register();
  failWith = new StoreUnavailable('append');
  const res = await expectRefusal(t, send, 503, 'store_unavailable');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
});

it('a deleted stream answers a clear refusal, 409 stream_deleted', async () => {
  const send = await register();
  failWith = new StreamDeleted('member-sequence');
  await expectRefusal(t, send, 409, 'stream_deleted');
});
