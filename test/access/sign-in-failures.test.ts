import pino from 'pino';
import { MAX_PAIRS, SIGN_IN_FAILED_COUNT, SignInFailures } from '../../src/access/sign-in-failures';
import { memoryRateLimiter } from '../../src/stores/memory-rate-limiter';
import { RateLimiter } from '../../src/stores/ports';
import { EventStore, NewEvent, WrongExpectedVersion } from '../../src/stores/ports';

/** An event store that keeps what is appended, and, like the real ones, refuses a second no_stream append to a stream. */
function appendOnly() {
  const streams = new Map<string, NewEvent[]>();
  const store = {
    append: async (stream: string, events: NewEvent[], expected: unknown) => {
      if (expected === 'no_stream' && streams.has(stream))
        throw new WrongExpectedVersion(stream, expected as never, 0 as never);
      streams.set(stream, [...(streams.get(stream) ?? []), ...events]);
      return { position: String(streams.size) };
    },
  } as unknown as EventStore;
  const appended = () => [...streams.values()].flat().map((e) => e.data);
  return { store, appended };
}

const at = (time: string) => new Date(`2026-12-02T03:${time}Z`);

describe('failed sign-ins, folded by the minute', () => {
  it('appends a minute once it has ended, with its count per username and address', async () => {
    const { store, appended } = appendOnly();
    const failures = new SignInFailures(store, pino({ level: 'silent' }), memoryRateLimiter(SIGN_IN_FAILED_COUNT));
    for (const second of ['00:01', '00:30', '00:59']) await failures.count('Admin', '203.0.113.7', at(second));
    await failures.count('admin', '203.0.113.7', at('00:40'));
    await failures.count('admin', '203.0.113.8', at('00:40'));
    await failures.count('admin', '203.0.113.7', at('01:02'));
    await failures.flush(at('01:05'));
    expect(appended()).toEqual([
      { username: 'Admin', address: '203.0.113.7', minute: '2026-12-02T03:00:00.000Z', count: 4 },
      { username: 'admin', address: '203.0.113.8', minute: '2026-12-02T03:00:00.000Z', count: 1 },
    ]);
    await failures.flush();
    expect(appended()).toHaveLength(3);
  });

  it('counts past MAX_PAIRS pairs under "*" from "*", so made-up names cannot grow memory or the log', async () => {
    const { store, appended } = appendOnly();
    const failures = new SignInFailures(store, pino({ level: 'silent' }), memoryRateLimiter(SIGN_IN_FAILED_COUNT));
    for (let i = 0; i < MAX_PAIRS + 500; i++) await failures.count(`user${i}`, '203.0.113.7', at('00:10'));
    await failures.flush();
    expect(appended()).toHaveLength(MAX_PAIRS + 1);
    expect(appended().at(-1)).toMatchObject({ username: '*', address: '*', count: 500 });
  });

  it('appends the count of every instance sharing the stores once, whichever instance appends it', async () => {
    const { store, appended } = appendOnly();
    // What the stores share between API instances: the SQLite rate-limit file, MongoDB.
    const shared = memoryRateLimiter(SIGN_IN_FAILED_COUNT);
    const [one, other] = [
      new SignInFailures(store, pino({ level: 'silent' }), shared),
      new SignInFailures(store, pino({ level: 'silent' }), shared),
    ];
    for (const second of ['00:10', '00:11', '00:12']) await one.count('admin', '203.0.113.7', at(second));
    for (const second of ['00:20', '00:21']) await other.count('Admin', '203.0.113.7', at(second));
    await other.flush(at('01:05'));
    await one.flush(at('01:05'));
    expect(appended()).toEqual([
      { username: 'Admin', address: '203.0.113.7', minute: '2026-12-02T03:00:00.000Z', count: 5 },
    ]);
  });

  it('waits a moment after the minute, for a failure another instance was still counting', async () => {
    const { store, appended } = appendOnly();
    const failures = new SignInFailures(store, pino({ level: 'silent' }), memoryRateLimiter(SIGN_IN_FAILED_COUNT));
    await failures.count('admin', '203.0.113.7', at('00:59'));
    await failures.flush(at('01:01'));
    expect(appended()).toEqual([]);
    await failures.flush(at('01:03'));
    expect(appended()).toHaveLength(1);
  });

  it("appends this process's count when the shared count cannot be reached, and still answers", async () => {
    const { store, appended } = appendOnly();
    const down: RateLimiter = {
      consume: () => Promise.reject(new Error('rate-limit store down')),
      reset: () => Promise.reject(new Error('down')),
      refund: () => Promise.reject(new Error('down')),
    };
    const failures = new SignInFailures(store, pino({ level: 'silent' }), down);
    await failures.count('admin', '203.0.113.7', at('00:10'));
    await failures.count('admin', '203.0.113.7', at('00:20'));
    await failures.flush();
    expect(appended()).toEqual([expect.objectContaining({ count: 2 })]);
  });
});
