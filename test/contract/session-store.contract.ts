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

  it('creates, updates and destroys a session', async () => {
    const [id, other] = [randomUUID(), randomUUID()];
    const data = { member: 42, csrf: 'token', flags: { admin: false }, seen: [1, 2] };
    await store().create(id, data, HOUR_MS);
    await store().create(other, { member: 7 }, HOUR_MS);
    expect(await store().get(id)).toEqual(data);
    expect(await store().update(id, { member: 43 }, HOUR_MS)).toBe(true);
    expect(await store().get(id)).toEqual({ member: 43 });
    await store().destroy(id);
    expect(await store().get(id)).toBeNull();
    expect(await store().get(other)).toEqual({ member: 7 });
  });

  it('never brings a destroyed session back on update or renewal', async () => {
    const id = randomUUID();
    await store().create(id, { member: 1 }, HOUR_MS);
    await store().destroy(id);
    expect(await store().update(id, { member: 1 }, HOUR_MS)).toBe(false);
    await store().touch(id, HOUR_MS);
    expect(await store().get(id)).toBeNull();
  });

  it('never brings an expired session back on update or renewal', async () => {
    const id = randomUUID();
    await store().create(id, { member: 1 }, 50);
    await delay(120);
    expect(await store().update(id, { member: 1 }, HOUR_MS)).toBe(false);
    await store().touch(id, HOUR_MS);
    expect(await store().get(id)).toBeNull();
  });

  it('destroys an unknown session without complaint', async () => {
    await expect(store().destroy(randomUUID())).resolves.toBeUndefined();
  });

  it('forgets a session once its time to live has passed', async () => {
    const id = randomUUID();
    await store().create(id, { member: 1 }, 50);
    expect(await store().get(id)).toEqual({ member: 1 });
    await delay(120);
    expect(await store().get(id)).toBeNull();
  });

  it('counts the time to live from the last update or renewal, which keeps the data', async () => {
    const id = randomUUID();
    await store().create(id, { member: 1 }, 300);
    await delay(200);
    await store().update(id, { member: 2 }, 300);
    await delay(200);
    await store().touch(id, 300);
    await delay(200);
    expect(await store().get(id)).toEqual({ member: 2 });
  });
}
