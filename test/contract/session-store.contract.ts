import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { SessionStore } from '../../src/stores/ports';
import { StoreFixture, useStore } from './fixture';

const HOUR_MS = 3_600_000;

export function sessionStoreContract(
  open: () => Promise<StoreFixture<SessionStore>>,
): void {
  const store = useStore(open);

  it('returns null for an unknown session', async () => {
    expect(await store().get(randomUUID())).toBeNull();
  });

  it('stores, overwrites and destroys a session', async () => {
    const [id, other] = [randomUUID(), randomUUID()];
    const data = { member: 42, csrf: 'token', flags: { admin: false }, seen: [1, 2] };
    await store().set(id, data, HOUR_MS);
    await store().set(other, { member: 7 }, HOUR_MS);
    expect(await store().get(id)).toEqual(data);
    await store().set(id, { member: 43 }, HOUR_MS);
    expect(await store().get(id)).toEqual({ member: 43 });
    await store().destroy(id);
    expect(await store().get(id)).toBeNull();
    expect(await store().get(other)).toEqual({ member: 7 });
  });

  it('destroys an unknown session without complaint', async () => {
    await expect(store().destroy(randomUUID())).resolves.toBeUndefined();
  });

  it('forgets a session once its time to live has passed', async () => {
    const id = randomUUID();
    await store().set(id, { member: 1 }, 50);
    expect(await store().get(id)).toEqual({ member: 1 });
    await delay(120);
    expect(await store().get(id)).toBeNull();
  });

  it('counts the time to live from the last set', async () => {
    const id = randomUUID();
    await store().set(id, { member: 1 }, 300);
    await delay(200);
    await store().set(id, { member: 2 }, 300);
    await delay(200);
    expect(await store().get(id)).toEqual({ member: 2 });
  });
}
