import { randomBytes } from 'node:crypto';
import { START, type DocumentStore, type DocumentWrite, type Position } from '../../src/stores/ports';
import { StoreFixture, useStore } from './fixture';

/** A collection (or projection) name no other test uses, valid for every adapter. */
function newName(): string {
  return `c_${randomBytes(6).toString('hex')}`;
}

/** Positions are opaque to the document store; these sort like real ones. */
function at(n: number): Position {
  return String(n).padStart(20, '0');
}

function put(collection: string, id: string, doc: Record<string, unknown> | null, position: number): DocumentWrite {
  return { collection, id, doc, position: at(position) };
}

export function documentStoreContract(open: () => Promise<StoreFixture<DocumentStore>>): void {
  const store = useStore(open);

  describe('get and write', () => {
    it('returns null for a missing document and an empty list for an empty collection', async () => {
      const collection = newName();
      expect(await store().get(collection, '1')).toBeNull();
      expect(await store().find(collection, {})).toEqual([]);
    });

    it('inserts, then replaces with a later position', async () => {
      const c = newName();
      const doc = { name: 'Ada', tags: ['x'], profile: { level: 2 } };
      await store().write([put(c, '1', doc, 5)]);
      expect(await store().get(c, '1')).toEqual({ id: '1', doc, position: at(5) });
      await store().write([put(c, '1', { name: 'Grace' }, 6)]);
      expect(await store().get(c, '1')).toEqual({ id: '1', doc: { name: 'Grace' }, position: at(6) });
    });

    it('ignores a write at an older or equal position, so replaying changes nothing', async () => {
      const c = newName();
      const write = put(c, '1', { v: 'current' }, 10);
      await store().write([write]);
      await store().write([write]);
      await store().write([put(c, '1', { v: 'older' }, 9)]);
      await store().write([put(c, '1', { v: 'same position' }, 10)]);
      expect(await store().get(c, '1')).toEqual({ id: '1', doc: { v: 'current' }, position: at(10) });
      expect(await store().find(c, {})).toEqual([{ id: '1', doc: { v: 'current' }, position: at(10) }]);
    });

    it('deletes with a tombstone that a replayed older write cannot revive', async () => {
      const c = newName();
      await store().write([put(c, '1', { v: 1 }, 1), put(c, '1', null, 2)]);
      expect(await store().get(c, '1')).toBeNull();
      expect(await store().find(c, {})).toEqual([]);
      await store().write([put(c, '1', { v: 1 }, 1)]);
      expect(await store().get(c, '1')).toBeNull();
      await store().write([put(c, '1', { v: 3 }, 3)]);
      expect(await store().get(c, '1')).toEqual({ id: '1', doc: { v: 3 }, position: at(3) });
    });

    it('keeps a tombstone for a document deleted before it was ever written', async () => {
      const c = newName();
      await store().write([put(c, '1', null, 5)]);
      await store().write([put(c, '1', { v: 'replayed' }, 4)]);
      expect(await store().get(c, '1')).toBeNull();
    });

    it('reads many documents at once, in the order asked, null for each missing or deleted one', async () => {
      const [c, other] = [newName(), newName()];
      await store().write([
        put(c, 'a', { v: 1 }, 1),
        put(c, 'b', { v: 2 }, 2),
        put(c, 'gone', { v: 3 }, 3),
        put(c, 'gone', null, 4),
      ]);
      await store().write([put(other, 'x', { v: 'elsewhere' }, 5)]);
      expect(await store().getMany(c, ['b', 'missing', 'gone', 'a', 'x', 'b'])).toEqual([
        { id: 'b', doc: { v: 2 }, position: at(2) },
        null,
        null,
        { id: 'a', doc: { v: 1 }, position: at(1) },
        null,
        { id: 'b', doc: { v: 2 }, position: at(2) },
      ]);
      expect(await store().getMany(c, [])).toEqual([]);
    });

    it('keeps collections apart', async () => {
      const [a, b] = [newName(), newName()];
      await store().write([put(a, '1', { in: 'a' }, 1), put(b, '1', { in: 'b' }, 1)]);
      await store().write([put(a, '1', null, 2)]);
      expect(await store().get(a, '1')).toBeNull();
      expect(await store().get(b, '1')).toEqual({ id: '1', doc: { in: 'b' }, position: at(1) });
    });

    it('keeps the newest of writes of one new document made at the same moment by separate writers', async () => {
      const c = newName();
      // Several rounds, each a new id written at positions 1 to 8 in a shuffled order, all at once:
      // two first writes of one id race to insert it, and the loser may be the newer.
      for (let round = 0; round < 10; round++) {
        const id = `r${round}`;
        const positions = [1, 2, 3, 4, 5, 6, 7, 8].sort(() => Math.random() - 0.5);
        await Promise.all(positions.map((p) => store().write([put(c, id, { p }, p)])));
        expect(await store().get(c, id)).toEqual({ id, doc: { p: 8 }, position: at(8) });
      }
    });

    it("counts a collection's documents, not its tombstones nor another collection's", async () => {
      const [a, b] = [newName(), newName()];
      expect(await store().count(a)).toBe(0);
      await store().write([
        put(a, '1', { v: 1 }, 1),
        put(a, '2', { v: 2 }, 1),
        put(a, '3', null, 1),
        put(b, '1', { v: 1 }, 1),
      ]);
      expect(await store().count(a)).toBe(2);
      await store().write([put(a, '2', null, 2)]);
      expect(await store().count(a)).toBe(1);
    });
  });

  describe('find', () => {
    let c: string;

    beforeAll(async () => {
      c = newName();
      await store().ensureCollections([{ name: c, indexes: ['status', 'age', 'active', 'note'] }]);
      await store().write([
        put(c, '10', { id: '10', status: 'active', age: 30, active: true, note: null }, 1),
        put(c, '2', { id: '2', status: 'active', age: 41, active: false, note: 'x' }, 1),
        put(c, '1', { id: '1', status: 'banned', age: 30, active: true }, 1),
        put(c, '3', { id: '3', status: 'active', age: 1, active: 1, note: '1' }, 1),
        put(c, '4', { id: '4', status: 'Active', age: '30', active: 'true', note: 0 }, 1),
        put(c, '5', { id: '5', status: 'active', age: 30, active: true }, 1),
        put(c, '5', null, 2),
      ]);
    });

    const ids = async (where: Parameters<DocumentStore['find']>[1]): Promise<string[]> =>
      (await store().find<{ id: string }>(c, where)).map((d) => d.id);

    it('filters on any field, in a collection never ensured and on fields no index names', async () => {
      const plain = newName();
      await store().write([
        put(plain, '2', { kind: 'b', n: 1 }, 1),
        put(plain, '1', { kind: 'a', n: 1 }, 1),
        put(plain, '3', { kind: 'a', n: 2 }, 1),
      ]);
      expect((await store().find(plain, { kind: 'a' })).map((d) => d.id)).toEqual(['1', '3']);
      expect((await store().find(plain, { n: 1, kind: 'b' })).map((d) => d.id)).toEqual(['2']);
      expect((await store().find(c, { id: '2' })).map((d) => d.id)).toEqual(['2']);
    });

    it('is idempotent to ensure the same collections again', async () => {
      await expect(store().ensureCollections([{ name: c, indexes: ['status', 'age'] }])).resolves.toBeUndefined();
    });

    it('orders by id, numerically when the ids are digits', async () => {
      expect(await ids({})).toEqual(['1', '2', '3', '4', '10']);
    });

    it('orders non-numeric ids as strings', async () => {
      const other = newName();
      await store().write(['b', 'aa', 'c', 'ab'].map((id) => put(other, id, { id }, 1)));
      expect((await store().find<{ id: string }>(other, {})).map((d) => d.id)).toEqual(['aa', 'ab', 'b', 'c']);
    });

    it('matches strings exactly, case included', async () => {
      expect(await ids({ status: 'active' })).toEqual(['2', '3', '10']);
      expect(await ids({ status: 'nobody' })).toEqual([]);
    });

    it('matches numbers, and not strings that look like them', async () => {
      expect(await ids({ age: 30 })).toEqual(['1', '10']);
      expect(await ids({ age: '30' })).toEqual(['4']);
    });

    it('matches booleans, and not 1, 0 or their names', async () => {
      expect(await ids({ active: true })).toEqual(['1', '10']);
      expect(await ids({ active: false })).toEqual(['2']);
      expect(await ids({ active: 1 })).toEqual(['3']);
      expect(await ids({ active: 'true' })).toEqual(['4']);
    });

    it('matches null against null and missing fields, as MongoDB does', async () => {
      expect(await ids({ note: null })).toEqual(['1', '10']);
      expect(await ids({ note: 0 })).toEqual(['4']);
      expect(await ids({ note: '1' })).toEqual(['3']);
    });

    it('requires every condition to hold', async () => {
      expect(await ids({ status: 'active', age: 30, active: true })).toEqual(['10']);
      expect(await ids({ status: 'banned', active: false })).toEqual([]);
    });
  });

  describe('findInRange', () => {
    let c: string;
    const instant = (day: number) => `2030-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

    beforeAll(async () => {
      c = newName();
      await store().ensureCollections([{ name: c, indexes: ['expires_at'] }]);
      await store().write([
        put(c, '10', { expires_at: instant(5) }, 1),
        put(c, '2', { expires_at: instant(5) }, 1),
        put(c, '3', { expires_at: instant(1) }, 1),
        put(c, '4', { expires_at: instant(9) }, 1),
        put(c, '5', { expires_at: null }, 1),
        put(c, '6', {}, 1),
        put(c, '7', { expires_at: 20300105 }, 1),
        put(c, '8', { expires_at: instant(3) }, 1),
        put(c, '8', null, 2),
      ]);
    });

    const ids = async (after: string | undefined, upTo: string): Promise<string[]> =>
      (
        await store().findInRange(
          c,
          after === undefined ? { field: 'expires_at', upTo } : { field: 'expires_at', after, upTo },
        )
      ).map((d) => d.id);

    it('answers the documents after the lower bound up to the upper bound, in field order then id order', async () => {
      expect(await ids(instant(1), instant(9))).toEqual(['2', '10', '4']);
      expect(await ids(instant(1), instant(5))).toEqual(['2', '10']);
      expect(await ids(instant(5), instant(9))).toEqual(['4']);
    });

    it('has no lower bound when none is given, and leaves out deleted documents and fields that are absent, null or not strings', async () => {
      expect(await ids(undefined, instant(9))).toEqual(['3', '2', '10', '4']);
      expect(await ids(undefined, '9999')).toEqual(['3', '2', '10', '4']);
    });

    it('answers nothing for an empty range or a collection never written', async () => {
      expect(await ids(instant(5), instant(5))).toEqual([]);
      expect(await ids(instant(9), instant(1))).toEqual([]);
      expect(await store().findInRange(newName(), { field: 'expires_at', upTo: instant(9) })).toEqual([]);
    });
  });

  describe('checkpoints', () => {
    it('reads the checkpoints of several projections at once, in the order asked, START for each never written', async () => {
      const [a, b, never] = [newName(), newName(), newName()];
      await store().write([], { projection: a, position: at(3) });
      await store().write([], { projection: b, position: at(7) });
      expect(await store().checkpoints([b, never, a])).toEqual([at(7), START, at(3)]);
      expect(await store().checkpoints([])).toEqual([]);
    });

    it('starts at START, moves with a write, and resets', async () => {
      const projection = newName();
      expect(await store().checkpoint(projection)).toBe(START);
      await store().write([], { projection, position: at(3) });
      expect(await store().checkpoint(projection)).toBe(at(3));
      const c = newName();
      await store().write([put(c, '1', { v: 1 }, 4)], { projection, position: at(4) });
      expect(await store().checkpoint(projection)).toBe(at(4));
      expect(await store().get(c, '1')).toMatchObject({ doc: { v: 1 } });
      await store().resetCheckpoint(projection);
      expect(await store().checkpoint(projection)).toBe(START);
    });

    it('only moves forward, so a late or replayed write cannot take it back', async () => {
      const projection = newName();
      await store().write([], { projection, position: at(9) });
      await store().write([], { projection, position: at(5) });
      expect(await store().checkpoint(projection)).toBe(at(9));
    });

    it('moves to the newest of first checkpoints written at the same moment', async () => {
      for (let round = 0; round < 10; round++) {
        const projection = newName();
        const positions = [1, 2, 3, 4, 5, 6].sort(() => Math.random() - 0.5);
        await Promise.all(positions.map((p) => store().write([], { projection, position: at(p) })));
        expect(await store().checkpoint(projection)).toBe(at(6));
      }
    });

    it('keeps projections apart', async () => {
      const [p, q] = [newName(), newName()];
      await store().write([], { projection: p, position: at(7) });
      expect(await store().checkpoint(q)).toBe(START);
      await store().resetCheckpoint(q);
      expect(await store().checkpoint(p)).toBe(at(7));
    });
  });

  describe('dropCollection', () => {
    it('removes the documents and tombstones of one collection only, so a rebuild can replay', async () => {
      const [c, other] = [newName(), newName()];
      await store().write([put(c, '1', { v: 1 }, 5), put(c, '2', null, 5), put(other, '1', { v: 'kept' }, 5)]);
      await store().dropCollection(c);
      expect(await store().get(c, '1')).toBeNull();
      expect(await store().find(c, {})).toEqual([]);
      expect(await store().get(other, '1')).toMatchObject({ doc: { v: 'kept' } });
      await store().write([put(c, '1', { v: 'rebuilt' }, 1), put(c, '2', { v: 'rebuilt' }, 1)]);
      expect((await store().find(c, {})).map((d) => d.doc)).toEqual([{ v: 'rebuilt' }, { v: 'rebuilt' }]);
    });
  });

  describe('replaceCollection', () => {
    it('swaps the source in for the target, tombstones included, leaves the source empty and moves the checkpoint', async () => {
      const [live, aside, other, projection] = [newName(), newName(), newName(), newName()];
      await store().ensureCollections([{ name: aside, indexes: ['status'] }]);
      await store().write([put(live, '1', { v: 'old' }, 3), put(live, '2', { v: 'old only' }, 3)], {
        projection,
        position: at(3),
      });
      await store().write([
        put(aside, '1', { v: 'new', status: 'a' }, 5),
        put(aside, '3', null, 4),
        put(other, '1', { v: 'kept' }, 1),
      ]);

      await store().replaceCollection(live, aside, { projection, position: at(6) });

      expect(await store().find(live, {})).toEqual([{ id: '1', doc: { v: 'new', status: 'a' }, position: at(5) }]);
      expect(await store().find(live, { status: 'a' })).toHaveLength(1);
      expect(await store().checkpoint(projection)).toBe(at(6));
      expect(await store().find(aside, {})).toEqual([]);
      expect(await store().get(other, '1')).toMatchObject({ doc: { v: 'kept' } });
      // The swapped-in tombstone still guards the deleted document against a replayed write.
      await store().write([put(live, '3', { v: 'replayed' }, 2)]);
      expect(await store().get(live, '3')).toBeNull();
    });

    it('lets a find running during the swap read the old collection or the new one, whole', async () => {
      // Enough documents for a server to answer in several batches, so the swap can land between them.
      const count = 3000;
      const fill = (collection: string, v: string) =>
        Array.from({ length: count }, (_, i) => put(collection, String(i), { v, pad: 'x'.repeat(200) }, 1));
      for (let round = 0; round < 3; round++) {
        const [live, aside, projection] = [newName(), newName(), newName()];
        await store().write(fill(live, 'old'));
        await store().write(fill(aside, 'new'));
        const [read] = await Promise.all([
          store().find<{ v: string }>(live, {}),
          store().replaceCollection(live, aside, { projection, position: at(2) }),
        ]);
        expect(read).toHaveLength(count);
        expect(new Set(read.map((d) => d.doc.v)).size).toBe(1);
      }
    });

    it('never moves the checkpoint back', async () => {
      const [live, aside, projection] = [newName(), newName(), newName()];
      await store().ensureCollections([{ name: aside, indexes: [] }]);
      await store().write([], { projection, position: at(9) });
      await store().replaceCollection(live, aside, { projection, position: at(4) });
      expect(await store().checkpoint(projection)).toBe(at(9));
    });
  });
}
