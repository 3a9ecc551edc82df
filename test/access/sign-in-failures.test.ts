import pino from 'pino';
import { MAX_PAIRS, SignInFailures } from '../../src/access/sign-in-failures';
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
    const failures = new SignInFailures(store, pino({ level: 'silent' }));
    for (const second of ['00:01', '00:30', '00:59']) failures.count('Admin', '203.0.113.7', at(second));
    failures.count('admin', '203.0.113.7', at('00:40'));
    failures.count('admin', '203.0.113.8', at('00:40'));
    failures.count('admin', '203.0.113.7', at('01:02'));
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
    const failures = new SignInFailures(store, pino({ level: 'silent' }));
    for (let i = 0; i < MAX_PAIRS + 500; i++) failures.count(`user${i}`, '203.0.113.7', at('00:10'));
    await failures.flush();
    expect(appended()).toHaveLength(MAX_PAIRS + 1);
    expect(appended().at(-1)).toMatchObject({ username: '*', address: '*', count: 500 });
  });

  it('leaves a minute another process appended to that process', async () => {
    const { store, appended } = appendOnly();
    const [one, other] = [
      new SignInFailures(store, pino({ level: 'silent' })),
      new SignInFailures(store, pino({ level: 'silent' })),
    ];
    one.count('admin', '203.0.113.7', at('00:10'));
    other.count('admin', '203.0.113.7', at('00:20'));
    await one.flush();
    await other.flush();
    expect(appended()).toHaveLength(1);
  });
});
