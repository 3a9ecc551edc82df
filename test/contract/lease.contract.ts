import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { LeaseLost, START, type DocumentStore, type Leases, type Position } from '../../src/stores/ports';
import { StoreFixture, useStore } from './fixture';

/** Two processes' openings of one store: each with its leases and its document store, fenced apart. */
export interface TwoOpenings {
  one: { leases: Leases; documents: DocumentStore };
  other: { leases: Leases; documents: DocumentStore };
}

const newName = (): string => `l_${randomBytes(6).toString('hex')}`;
const at = (n: number): Position => String(n).padStart(20, '0');
/** Short terms, so that a test waits for one to run out in a fraction of a second. */
const SHORT_MS = 200;

/** Asks for the lease until it is granted: answers how long that took. */
async function acquireWhenFree(leases: Leases, lease: string, holder: string, ttlMs: number) {
  const started = Date.now();
  for (;;) {
    const term = await leases.acquire(lease, holder, ttlMs);
    if (term) return { term, waitedMs: Date.now() - started };
    await delay(10);
  }
}

/**
 * The lease port and the fence it gives the document store, run against each adapter with two
 * openings of one store, as two projectors on one database have.
 */
export function leaseContract(open: () => Promise<StoreFixture<TwoOpenings>>): void {
  const stores = useStore(open);
  const one = () => stores().one;
  const other = () => stores().other;
  afterEach(() => {
    one().documents.fence(null);
    other().documents.fence(null);
  });

  describe('leases', () => {
    it('grants a free lease to one holder, refuses it to another while the term runs, and renews it with the same token', async () => {
      const lease = newName();
      const first = await one().leases.acquire(lease, 'a', 60_000);
      expect(first).toMatchObject({ holder: 'a', token: expect.any(Number) });
      expect(first!.expiresAt).toBeGreaterThan(Date.now() + 50_000);
      expect(await other().leases.acquire(lease, 'b', 60_000)).toBeNull();
      expect(await other().leases.current(lease)).toEqual(first);
      const renewed = await one().leases.renew(lease, 'a', first!.token, 60_000);
      expect(renewed).toMatchObject({ holder: 'a', token: first!.token });
      // Asking again while holding it renews it too, without a new term.
      expect(await one().leases.acquire(lease, 'a', 60_000)).toMatchObject({ token: first!.token });
    });

    it('answers null for a lease never taken', async () => {
      expect(await one().leases.current(newName())).toBeNull();
    });

    it('lets another holder take it once the term ran out, with a greater token, and refuses the old holder its renewal', async () => {
      const lease = newName();
      const first = (await one().leases.acquire(lease, 'a', SHORT_MS))!;
      const { term: second, waitedMs } = await acquireWhenFree(other().leases, lease, 'b', 60_000);
      expect(waitedMs).toBeGreaterThanOrEqual(SHORT_MS - 50);
      expect(second).toMatchObject({ holder: 'b' });
      expect(second.token).toBeGreaterThan(first.token);
      expect(await one().leases.renew(lease, 'a', first.token, 60_000)).toBeNull();
      expect(await one().leases.acquire(lease, 'a', 60_000)).toBeNull();
    });

    it('gives a holder whose own term ran out a new token when it takes the lease again', async () => {
      const lease = newName();
      const first = (await one().leases.acquire(lease, 'a', SHORT_MS))!;
      // Asked while the term runs, it is a renewal (the same token): only once it is over is it a new term.
      await delay(SHORT_MS + 100);
      const again = await one().leases.acquire(lease, 'a', 60_000);
      expect(again!.token).toBeGreaterThan(first.token);
    });

    it('hands the lease over at once when its holder releases it', async () => {
      const lease = newName();
      const first = (await one().leases.acquire(lease, 'a', 60_000))!;
      await one().leases.release(lease, 'a', first.token);
      const next = await other().leases.acquire(lease, 'b', 60_000);
      expect(next).toMatchObject({ holder: 'b' });
      expect(next!.token).toBeGreaterThan(first.token);
      // A release by a deposed holder changes nothing.
      await one().leases.release(lease, 'a', first.token);
      expect(await one().leases.acquire(lease, 'a', 60_000)).toBeNull();
    });

    it('grants a free lease to exactly one of many holders asking at once through both openings', async () => {
      const lease = newName();
      const holders = Array.from({ length: 12 }, (_, i) => `h${i}`);
      const terms = await Promise.all(
        holders.map((holder, i) => (i % 2 ? other() : one()).leases.acquire(lease, holder, 60_000)),
      );
      const granted = terms.filter((t) => t !== null);
      expect(granted).toHaveLength(1);
      expect(await one().leases.current(lease)).toEqual(granted[0]);
    });
  });

  describe('fenced writes', () => {
    /** `one` held the lease and is deposed: `other` holds a later term. Both stores fenced by their terms. */
    async function deposed() {
      const lease = newName();
      const old = (await one().leases.acquire(lease, 'a', SHORT_MS))!;
      one().documents.fence({ lease, token: old.token });
      const { term } = await acquireWhenFree(other().leases, lease, 'b', 60_000);
      other().documents.fence({ lease, token: term.token });
      return { lease, old, term };
    }

    it("lets the holder write documents and move checkpoints under its term's token", async () => {
      const lease = newName();
      const term = (await one().leases.acquire(lease, 'a', 60_000))!;
      one().documents.fence({ lease, token: term.token });
      const c = newName();
      await one().documents.write([{ collection: c, id: '1', doc: { v: 1 }, position: at(1) }], {
        projection: c,
        position: at(1),
      });
      expect(await other().documents.get(c, '1')).toMatchObject({ doc: { v: 1 } });
      expect(await other().documents.checkpoint(c)).toBe(at(1));
    });

    it("refuses a deposed holder's outbox write and checkpoint with LeaseLost, and keeps what its successor wrote", async () => {
      await deposed();
      const outbox = newName();
      await other().documents.write([{ collection: outbox, id: 'm1', doc: { status: 'delivered' }, position: at(2) }], {
        projection: outbox,
        position: at(2),
      });
      const late = one().documents.write(
        [{ collection: outbox, id: 'm1', doc: { status: 'failed' }, position: at(3) }],
        { projection: outbox, position: at(3) },
      );
      await expect(late).rejects.toBeInstanceOf(LeaseLost);
      expect(await other().documents.get(outbox, 'm1')).toMatchObject({
        doc: { status: 'delivered' },
        position: at(2),
      });
      expect(await other().documents.checkpoint(outbox)).toBe(at(2));
    });

    it("refuses a deposed holder's write even before its successor wrote anything", async () => {
      await deposed();
      const c = newName();
      const late = one().documents.write([{ collection: c, id: '1', doc: { v: 1 }, position: at(1) }], {
        projection: c,
        position: at(1),
      });
      await expect(late).rejects.toBeInstanceOf(LeaseLost);
      expect(await other().documents.get(c, '1')).toBeNull();
      expect(await other().documents.checkpoint(c)).toBe(START);
    });

    it("refuses a deposed holder's swap and checkpoint reset", async () => {
      await deposed();
      const target = newName();
      const aside = newName();
      await other().documents.write([{ collection: target, id: '1', doc: { v: 'live' }, position: at(5) }], {
        projection: target,
        position: at(5),
      });
      await expect(
        one().documents.replaceCollection(target, aside, { projection: target, position: at(9) }),
      ).rejects.toBeInstanceOf(LeaseLost);
      await expect(one().documents.resetCheckpoint(target)).rejects.toBeInstanceOf(LeaseLost);
      expect(await other().documents.get(target, '1')).toMatchObject({ doc: { v: 'live' } });
      expect(await other().documents.checkpoint(target)).toBe(at(5));
    });

    it('leaves unfenced writes alone: a process that holds no lease writes as before', async () => {
      const { lease } = await deposed();
      expect(lease).toBeTruthy();
      const c = newName();
      one().documents.fence(null);
      await one().documents.write([{ collection: c, id: '1', doc: { v: 1 }, position: at(1) }], {
        projection: c,
        position: at(1),
      });
      expect(await other().documents.checkpoint(c)).toBe(at(1));
    });
  });
}
