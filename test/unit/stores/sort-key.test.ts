import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sortKey } from '../../../src/stores/mongodb/guarded-writes';
import { openSqliteStores } from '../../../src/stores/sqlite';
import type { Stores } from '../../../src/stores/ports';
import { seededRandom } from './seeded-random';

/** MongoDB compares strings bytewise on their UTF-8 encoding (the simple collation). */
function mongoOrder(ids: string[]): string[] {
  return [...ids].sort(
    (a, b) =>
      Buffer.compare(Buffer.from(sortKey(a)), Buffer.from(sortKey(b))) ||
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
}

describe('MongoDB read-model sort key', () => {
  it('orders digit-only ids by value, before every other id', () => {
    expect(mongoOrder(['10', 'b', '2', '1', 'aa', '-1', '007', '7', '0', '', '1a', '18446744073709551616'])).toEqual([
      '0',
      '1',
      '2',
      '007',
      '7',
      '10',
      '18446744073709551616',
      '',
      '-1',
      '1a',
      'aa',
      'b',
    ]);
  });

  describe('agrees with the embedded adapter', () => {
    let dir: string;
    let stores: Stores;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'sort-key-'));
      stores = openSqliteStores(dir);
    });
    afterAll(async () => {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('on 2 000 random ids, leading zeros, long numbers and non-ASCII included', async () => {
      const random = seededRandom(7);
      const alphabet = ['0', '0', '1', '9', 'a', 'Z', '-', '_', 'é', '🚀'];
      const ids = new Set<string>();
      while (ids.size < 2_000) {
        const length = 1 + Math.floor(random() * 25);
        const digitsOnly = random() < 0.5;
        let id = '';
        for (let i = 0; i < length; i++) {
          id += digitsOnly ? String(Math.floor(random() * 10)) : alphabet[Math.floor(random() * alphabet.length)];
        }
        ids.add(id);
      }
      await stores.documents.write([...ids].map((id) => ({ collection: 'ordering', id, doc: { id }, position: '1' })));
      const embedded = (await stores.documents.find<{ id: string }>('ordering', {})).map((doc) => doc.id);
      expect(mongoOrder([...ids])).toEqual(embedded);
    });
  });
});
