import { setTimeout as sleep } from 'node:timers/promises';
import { Stores } from '../../src/stores/ports';
import { activePartner, mistypedKey, openCall } from '../support/credentials';
import { startPlatform, TestPlatform } from '../support/platform';

/** Counts every call into the stores' ports, whichever adapter serves them. */
function counting(stores: Stores, calls: string[]): Stores {
  const watch = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(property)}`);
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  return { ...stores, events: watch('events', stores.events), documents: watch('documents', stores.documents), sessions: watch('sessions', stores.sessions) };
}

let t: TestPlatform;
const calls: string[] = [];
beforeAll(async () => {
  t = await startPlatform({}, undefined, (stores) => counting(stores, calls));
});
afterAll(() => t.close());

describe('the open API key check', () => {
  it('costs no store call: accepted, refused and forbidden partner calls are answered from memory', async () => {
    const p = await activePartner(t);
    // The projection runner flushes checkpoints of the setup's events on a timer: count from the
    // moment the stores have been left alone for a while, however loaded the machine is.
    do {
      calls.length = 0;
      await sleep(300);
    } while (calls.length > 0);
    for (let i = 0; i < 20; i++) {
      await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
      await openCall(t, '/open/addons', p.apiid, mistypedKey(p.apikey)).expect(401);
      await openCall(t, '/open/member-groups', p.apiid, p.apikey).expect(403);
    }
    expect(calls).toEqual([]);
  });
});
