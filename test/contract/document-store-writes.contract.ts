import type { DocumentStore } from '../../src/stores/ports';
import { at, newName, put } from './document-store-support';

/** Reading documents by id and writing them: positions decide, tombstones stay. */
export function documentWritesContract(store: () => DocumentStore): void {
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
}
