import type { DocumentStore } from '../../src/stores/ports';
import { newName, put } from './document-store-support';

/** Finding documents by their fields and in a range of one field. */
export function documentQueriesContract(store: () => DocumentStore): void {
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
}
