import { setTimeout as sleep } from 'node:timers/promises';
import { EventStore, RecordedEvent, Stores } from '../../../src/stores/ports';
import { activePartner, openCall } from '../../support/credentials';
import { registerMember, startPlatform, TestPlatform } from '../../support/platform';

/**
 * The real store, except that while `broken` is set every subscription but the first (the
 * projection runner's) fails on its next event, as a dropped connection would.
 */
let broken = false;
function breakable(stores: Stores): Stores {
  const events = stores.events;
  let subscriptions = 0;
  const faulty: EventStore = {
    append: (...args) => events.append(...args),
    readStream: (...args) => events.readStream(...args),
    readAll: (...args) => events.readAll(...args),
    headPosition: () => events.headPosition(),
    close: () => events.close(),
    subscribeAll(from, signal) {
      subscriptions += 1;
      if (subscriptions === 1) return events.subscribeAll(from, signal);
      return (async function* (): AsyncGenerator<RecordedEvent> {
        for await (const event of events.subscribeAll(from, signal)) {
          if (broken) throw new Error('connection to the event store lost');
          yield event;
        }
      })();
    },
  };
  return { ...stores, events: faulty };
}

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({}, undefined, breakable);
});
afterAll(() => t.close());

describe('the key ring when its subscription breaks', () => {
  it('refuses partner calls with 503 instead of trusting a stale ring, reports it, and recovers', async () => {
    const p = await activePartner(t);
    await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);

    broken = true;
    await registerMember(t.client()); // any event: the ring's subscription fails on it
    await sleep(50);
    const refused = await openCall(t, '/open/addons', p.apiid, p.apikey).expect(503);
    expect(refused.body).toEqual({
      code: 503,
      message: expect.any(String),
      data: { error: 'credentials_unavailable' },
    });
    expect(refused.headers['retry-after']).toBe('1');
    const health = await p.admin.get('/api/v1/health').expect(503);
    expect(health.body.data).toMatchObject({ status: 'degraded', key_ring: 'resubscribing' });
    const readiness = await t.client().get('/api/v1/readyz').expect(503);
    expect(readiness.body).toEqual({ code: 503, message: expect.any(String), data: { error: 'not_ready' } });

    broken = false;
    const started = Date.now();
    while ((await openCall(t, '/open/addons', p.apiid, p.apikey)).status !== 200) {
      expect(Date.now() - started).toBeLessThan(3000);
      await sleep(50);
    }
    await p.admin.get('/api/v1/health').expect(200);
    await t.client().get('/api/v1/readyz').expect(200);
  });
});
