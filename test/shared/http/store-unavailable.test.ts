import BetterSqlite3 from 'better-sqlite3';
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
  return () =>
    client
      .post('/api/v1/developer/register')
      .set('X-CSRF-Token', token)
      .send({ username: uniqueUsername(), password: 'secret1', email: 'd@example.com' });
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

it('a store out of space answers 503 storage_full and logs one line saying so, no 500 and no stack trace', async () => {
  const send = await register();
  // What better-sqlite3 throws when the disk (or the file's page limit) is full.
  failWith = new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL');
  const before = t.logLines.length;
  const res = await expectRefusal(t, send, 503, 'storage_full');
  expect(res.body.message).toMatch(/run out of storage space/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  const logged = t.logLines.slice(before).join('\n');
  expect(logged).toContain('a store is out of space');
  expect(logged).toContain('database or disk is full');
  expect(logged).not.toContain('"stack"');
  expect(logged).not.toContain('request failed');
});
