import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, Server } from 'node:http';
import request from 'supertest';
import { Stores } from '../../../src/stores/ports';
import { activePartner, mistypedKey } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';

/**
 * Marks the work done while answering one HTTP request, so that store calls made on its behalf
 * can be told from the background (the projection runner's timers, the replicas' subscriptions).
 */
const answering = new AsyncLocalStorage<true>();

/** Counts every call into the stores' ports made while answering a request, whichever adapter serves them. */
function counting(stores: Stores, calls: string[]): Stores {
  const watch = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (answering.getStore()) calls.push(`${name}.${String(property)}`);
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  return {
    ...stores,
    events: watch('events', stores.events),
    documents: watch('documents', stores.documents),
    sessions: watch('sessions', stores.sessions),
  };
}

let t: TestPlatform;
let server: Server;
const calls: string[] = [];
beforeAll(async () => {
  t = await startPlatform({}, undefined, (stores) => counting(stores, calls));
  const callback = t.platform.listener();
  server = createServer((req, res) => answering.run(true, () => callback(req, res)));
});
afterAll(() => t.close());

const openCall = (path: string, apiid: string, apikey: string) =>
  request(server).get(`/api/v1${path}`).set('X-API-ID', apiid).set('X-API-Key', apikey);

describe('the open API key check', () => {
  it('costs no store call: accepted, refused and forbidden partner calls are answered from memory', async () => {
    const p = await activePartner(t);
    // The counter sees what a request does: a new session is written to the store.
    await request(server).get('/api/v1/developer/session').expect(200);
    expect(calls).not.toEqual([]);

    calls.length = 0;
    for (let i = 0; i < 20; i++) {
      await openCall('/open/addons', p.apiid, p.apikey).expect(200);
      await openCall('/open/addons', p.apiid, mistypedKey(p.apikey)).expect(401);
      await openCall('/open/member-groups', p.apiid, p.apikey).expect(403);
    }
    expect(calls).toEqual([]);
  });
});
