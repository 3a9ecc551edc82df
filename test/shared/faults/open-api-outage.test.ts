import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { activePartner, openCall, Partner } from '../../support/credentials';
import { eventually } from '../../support/eventually';
import { FaultSwitch, faultyStores } from '../../support/faults';
import { startPlatform, TestPlatform } from '../../support/platform';

jest.setTimeout(20_000);

const BOUND_MS = 300;
let t: TestPlatform;
let eventStore: FaultSwitch;
let partner: Partner;

beforeAll(async () => {
  t = await startPlatform({ KEY_RING_MAX_STALENESS_MS: BOUND_MS }, undefined, (stores) => {
    const faulty = faultyStores(stores);
    eventStore = faulty.events;
    return faulty.stores;
  });
  partner = await activePartner(t);
});
afterAll(async () => {
  eventStore.heal();
  await t.close();
});

describe('an API instance cut off from the event store (fault injection)', () => {
  it('answers partners from its key ring within the staleness bound, then 503 credentials_unavailable with Retry-After, and is not ready until the store is back', async () => {
    const call = () => openCall(t, '/open/addons', partner.apiid, partner.apikey);
    await call().expect(200);
    eventStore.outage('fail', 60_000);
    await call().expect(200);

    await sleep(BOUND_MS + 100);
    const refused = await call();
    expect(refused.status).toBe(503);
    expect(refused.body.data.error).toBe('credentials_unavailable');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await request(t.server).get('/api/v1/readyz').expect(503);
    const health = await partner.admin.get('/api/v1/health').expect(503);
    expect(health.body.data).toMatchObject({ key_ring: 'resubscribing', projections: { status: 'interrupted' } });

    eventStore.heal();
    await eventually(async () => (await call()).status === 200, { every: 50, what: 'partners answered again' });
    await eventually(async () => (await request(t.server).get('/api/v1/readyz')).status === 200, {
      every: 50,
      what: 'ready again',
    });
  });
});
