import { status } from '@grpc/grpc-js';
import pino from 'pino';
import { refusalFor } from '../../src/shared/http/errors';
import type { EventStoreDbEventStore } from '../../src/stores/eventstoredb/event-store';
import { START, type RecordedEvent } from '../../src/stores/ports';
import { Opened, REFUSAL_STATUSES, note } from './support/kurrentdb-fixture';

/**
 * Issue 45, item 4: every gRPC status the KurrentDB client can surface on a read or an append
 * reaches the caller as a fast 503 store_unavailable with Retry-After, through the real client,
 * the service's adapter and its HTTP error mapping, with the adapter's own 10 s time limit in
 * place: "fast" is well within it. The peer is a stand-in (test/support/kurrentdb-stand-in.ts)
 * that checks CLIENT BEHAVIOUR ONLY, not a KurrentDB server.
 */

/** Far within the adapter's 10 s limit: the refusal itself reached the caller, not a timer. */
const FAST_MS = 1_500;

const opened = new Opened({
  retry: {
    policy: { attempts: 2, initialMs: 10, maxMs: 10, jitter: 'full' },
    random: () => 0,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  },
});
afterEach(() => opened.close());

interface Told {
  status: number;
  error: string;
  retryAfter: string | undefined;
  errorsLogged: number;
  ms: number;
}

/** What the service answers a request whose store call this is, and what it logged as an error. */
async function answered(call: () => Promise<unknown>): Promise<Told | 'answered'> {
  const errors: unknown[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });
  const started = Date.now();
  try {
    await call();
    return 'answered';
  } catch (error) {
    const refusal = refusalFor(error, () => log);
    return {
      status: refusal.status,
      error: refusal.error,
      retryAfter: refusal.headers?.['Retry-After'],
      errorsLogged: errors.length,
      ms: Date.now() - started,
    };
  }
}

const unavailable = (errorsLogged: number) => ({
  status: 503,
  error: 'store_unavailable',
  retryAfter: '5',
  errorsLogged,
  ms: expect.any(Number),
});
const permanent = (name: string) => (name === 'PERMISSION_DENIED' ? 1 : 0);

async function storeWithEvents(): Promise<{
  store: EventStoreDbEventStore;
  peer: Awaited<ReturnType<Opened['standIn']>>;
}> {
  const peer = await opened.standIn();
  const store = opened.storeOn(peer.url());
  for (let i = 0; i < 3; i++) await store.append('note-1', [note()], 'any');
  return { store, peer };
}

describe.each(REFUSAL_STATUSES)(
  'KurrentDB answering %s (real client, stand-in peer that checks client behaviour only)',
  (name) => {
    const code = status[name];

    it('a read refused at once is a fast 503 store_unavailable', async () => {
      const { store, peer } = await storeWithEvents();
      peer.failNext('ReadStream', { code });
      const told = await answered(() => store.readStream('note-1'));
      expect(told).toEqual(unavailable(permanent(name)));
      expect((told as Told).ms).toBeLessThan(FAST_MS);
    });

    it('a read failing after its first event reaches the caller at once as 503 store_unavailable', async () => {
      const { store, peer } = await storeWithEvents();
      peer.failNext('ReadStream', { code, afterEvents: 1 });
      const told = await answered(() => store.readStream('note-1'));
      expect(told).toEqual(unavailable(permanent(name)));
      expect((told as Told).ms).toBeLessThan(FAST_MS);
    });

    it('a read of $all failing after its first event reaches the caller at once as 503 store_unavailable', async () => {
      const { store, peer } = await storeWithEvents();
      peer.failNext('Read', { code, afterEvents: 1 });
      const told = await answered(() => store.readAll('', 10));
      expect(told).toEqual(unavailable(permanent(name)));
      expect((told as Told).ms).toBeLessThan(FAST_MS);
    });

    it('an append refused is a fast 503 store_unavailable', async () => {
      const { store, peer } = await storeWithEvents();
      peer.failNext('Append', { code }, { code });
      const told = await answered(() => store.append('note-1', [note()], 'any'));
      expect(told).toEqual(unavailable(permanent(name)));
      expect((told as Told).ms).toBeLessThan(FAST_MS);
    });

    it('a subscription refused is told to its observer as dropped and resubscribes, delivering every event', async () => {
      const { store, peer } = await storeWithEvents();
      // Refuses the head check and the subscription alike: each is a Read of $all.
      peer.failNext('Read', { code }, { code });
      const stop = new AbortController();
      const dropped: unknown[] = [];
      const delivered: RecordedEvent[] = [];
      const following = (async () => {
        for await (const e of store.subscribeAll(START, stop.signal, { onDropped: (error) => dropped.push(error) })) {
          delivered.push(e);
          if (delivered.length === 3) stop.abort();
        }
      })();
      await following;
      expect(dropped.length).toBeGreaterThan(0);
      expect(delivered.map((e) => e.revision)).toEqual([0, 1, 2]);
    });
  },
);
