import { START, type DocumentStore } from '../../src/stores/ports';
import { at, newName, put } from './document-store-support';

/** A projection's checkpoints, and dropping or swapping whole collections for a rebuild. */
export function documentCollectionsContract(store: () => DocumentStore): void {
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
