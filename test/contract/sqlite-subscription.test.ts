import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidPosition, START } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-sub-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite subscription', () => {
  it('halts loudly on a checkpoint after the head of the log, and says the subscription is live otherwise', async () => {
    const stores = openSqliteStores(dir);
    try {
      const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: randomUUID(), time: new Date().toISOString() };
      const { position } = await stores.events.append('s', [{ type: 'A', data: {}, metadata }], 'no_stream');
      const ahead = String(Number(position) + 5).padStart(20, '0');
      const iterator = stores.events.subscribeAll(ahead)[Symbol.asyncIterator]();
      await expect(iterator.next()).rejects.toThrow(InvalidPosition);

      let live = 0;
      const abort = new AbortController();
      const seen = [];
      for await (const event of stores.events.subscribeAll(START, abort.signal, { onLive: () => (live += 1) })) {
        seen.push(event.type);
        abort.abort();
      }
      expect(seen).toEqual(['A']);
      expect(live).toBe(1);
    } finally {
      await stores.close();
    }
  });
});
