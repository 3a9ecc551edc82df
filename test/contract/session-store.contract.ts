import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { SessionStore } from '../../src/stores/ports';
import { StoreFixture, useStore } from './fixture';

const HOUR_MS = 3_600_000;

export function sessionStoreContract(open: () => Promise<StoreFixture<SessionStore>>): void {
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

  describe('regenerate: a move decided against the session as it is when it commits', () => {
    const ttlMs = () => HOUR_MS;
    const add = (key: string) => ({
      change: (current: Record<string, unknown> | null) => ({ ...current, [key]: true }),
      ttlMs,
    });

    it('moves the current data to the new id; the old id is dead', async () => {
      const [from, to] = [randomUUID(), randomUUID()];
      await store().create(from, { member: 1 }, HOUR_MS);
      await store().update(from, { member: 1, admin: 2 }, HOUR_MS);
      expect(await store().regenerate(from, to, add('csrf'))).toEqual({ member: 1, admin: 2, csrf: true });
      expect(await store().get(to)).toEqual({ member: 1, admin: 2, csrf: true });
      expect(await store().get(from)).toBeNull();
      expect(await store().update(from, { member: 1 }, HOUR_MS)).toBe(false);
      expect(await store().touch(from, HOUR_MS)).toBe(false);
      expect(await store().touch(to, HOUR_MS)).toBe(true);
    });

    it('sees null for a session destroyed or expired meanwhile', async () => {
      const [gone, expired] = [randomUUID(), randomUUID()];
      await store().create(gone, { admin: 2 }, HOUR_MS);
      await store().destroy(gone);
      await store().create(expired, { admin: 2 }, 50);
      await delay(120);
      expect(await store().regenerate(gone, randomUUID(), add('member'))).toEqual({ member: true });
      expect(await store().regenerate(expired, randomUUID(), add('member'))).toEqual({ member: true });
    });

    it('of two moves of one session, the second sees null and never the session the first made', async () => {
      const [from, first, second] = [randomUUID(), randomUUID(), randomUUID()];
      await store().create(from, { admin: 2 }, HOUR_MS);
      await store().regenerate(from, first, { change: (current) => ({ ...current, member: 1 }), ttlMs });
      expect(await store().regenerate(from, second, add('late'))).toEqual({ late: true });
      expect(await store().get(first)).toEqual({ admin: 2, member: 1 });
    });

    it('lets a move change, in place, the session an earlier move made', async () => {
      const [from, first, second] = [randomUUID(), randomUUID(), randomUUID()];
      await store().create(from, { admin: 2, member: 1 }, HOUR_MS);
      await store().regenerate(from, first, { change: (current) => ({ ...current, member: 3 }), ttlMs });
      const withoutAdmin = ({ admin: _admin, ...rest }: Record<string, unknown>) => rest;
      await store().regenerate(from, second, {
        change: (current) => withoutAdmin(current ?? {}),
        successor: withoutAdmin,
        ttlMs,
      });
      expect(await store().get(first)).toEqual({ member: 3 });
      expect(await store().get(second)).toEqual({});
    });

    it('applies concurrent moves of one session one after the other: exactly one sees it', async () => {
      const from = randomUUID();
      await store().create(from, { admin: 2 }, HOUR_MS);
      const see = { change: (current: Record<string, unknown> | null) => ({ saw: current }), ttlMs };
      const moved = await Promise.all(Array.from({ length: 8 }, () => store().regenerate(from, randomUUID(), see)));
      expect(moved.filter(({ saw }) => saw !== null)).toEqual([{ saw: { admin: 2 } }]);
    });
  });

  describe('endAllOf: every session of one identity ends', () => {
    it('destroys the sessions holding the identity on that side, and only those', async () => {
      const [one, two, admin, other] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await store().create(one, { member: { id: 7, username: 'ann' } }, HOUR_MS);
      await store().create(two, { member: { id: 7, username: 'ann' }, admin: { id: 1 } }, HOUR_MS);
      await store().create(admin, { admin: { id: 7 } }, HOUR_MS);
      await store().create(other, { member: { id: 8, username: 'bob' } }, HOUR_MS);
      expect(await store().endAllOf({ side: 'member', id: 7 })).toBe(2);
      expect(await store().get(one)).toBeNull();
      expect(await store().get(two)).toBeNull();
      expect(await store().get(admin)).toEqual({ admin: { id: 7 } });
      expect(await store().get(other)).toEqual({ member: { id: 8, username: 'bob' } });
    });

    it('keeps the session it is told to keep', async () => {
      const [kept, ended] = [randomUUID(), randomUUID()];
      await store().create(kept, { admin: { id: 3 } }, HOUR_MS);
      await store().create(ended, { admin: { id: 3 } }, HOUR_MS);
      expect(await store().endAllOf({ side: 'admin', id: 3 }, kept)).toBe(1);
      expect(await store().get(kept)).toEqual({ admin: { id: 3 } });
      expect(await store().get(ended)).toBeNull();
    });

    it('never lets a session it ended come back on update or renewal', async () => {
      const id = randomUUID();
      await store().create(id, { member: { id: 9 } }, HOUR_MS);
      await store().endAllOf({ side: 'member', id: 9 });
      expect(await store().update(id, { member: { id: 9 } }, HOUR_MS)).toBe(false);
      expect(await store().touch(id, HOUR_MS)).toBe(false);
      expect(await store().get(id)).toBeNull();
    });
  });
}
