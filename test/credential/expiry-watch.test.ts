import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { ExpiryWatch } from '../../src/credential/expiry-watch';
import { credentialsProjection } from '../../src/credential/projections/credentials';
import { NOTHING_DECIDED } from '../../src/credential/views';
import { openSqliteStores } from '../../src/stores/sqlite';
import type { DocumentStore, Scalar, Stores, StringRange } from '../../src/stores/ports';

const DAY_MS = 86_400_000;
const collection = credentialsProjection.collection.name;
let dir: string;
let stores: Stores;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'expiry-watch-'));
  stores = openSqliteStores(dir);
});
afterEach(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real document store, telling which credentials each read returned and whether anything read them all. */
function watched(documents: DocumentStore) {
  const read: string[] = [];
  let finds = 0;
  const watchedCalls: Partial<DocumentStore> = {
    find: <Doc>(c: string, where: Record<string, Scalar>) => {
      finds += 1;
      return documents.find<Doc>(c, where);
    },
    findInRange: async <Doc>(c: string, range: StringRange) => {
      const found = await documents.findInRange<Doc>(c, range);
      read.push(...found.map((d) => d.id));
      return found;
    },
  };
  const store = new Proxy(documents, {
    get: (target, name: keyof DocumentStore) =>
      watchedCalls[name] ?? (name === 'idempotency' ? target.idempotency : target[name].bind(target)),
  });
  return { store, read, finds: () => finds };
}

function credential(memberId: number, expiresAt: number) {
  const doc = {
    ...NOTHING_DECIDED,
    member_id: memberId,
    username: `m${memberId}`,
    status: 'active',
    applied_at: null,
    scopes: [],
    expires_at: new Date(expiresAt).toISOString(),
  };
  return { collection, id: String(memberId), doc, position: '00000000000000000001' };
}

describe('the expiry watch', () => {
  it('reads only the credentials whose expiry reaches a reminder or the expiry itself, by the indexed expiry, never every active credential', async () => {
    await stores.documents.ensureCollections([credentialsProjection.collection]);
    const now = Date.now();
    const far = Array.from({ length: 2000 }, (_, i) => credential(1000 + i, now + 200 * DAY_MS + i * 1000));
    await stores.documents.write([...far, credential(1, now + 1200)]);
    const { store, read, finds } = watched(stores.documents);
    const watch = new ExpiryWatch(stores.events, store, [30, 7, 1], pino({ level: 'silent' }), 100);
    watch.start();
    await sleep(2500);
    await watch.stop();

    expect(finds()).toBe(0);
    // The one credential that expired meanwhile, read once per look that reached its expiry: no other.
    expect(new Set(read)).toEqual(new Set(['1']));
    expect(read.length).toBeLessThan(40);
  });

  it('finds a credential whose reminder threshold is crossed after it started watching', async () => {
    await stores.documents.ensureCollections([credentialsProjection.collection]);
    const { store, read } = watched(stores.documents);
    const watch = new ExpiryWatch(stores.events, store, [1], pino({ level: 'silent' }), 100);
    watch.start();
    await sleep(300);
    expect(read).toEqual([]);
    // Its one-day reminder is due half a second from now.
    await stores.documents.write([credential(7, Date.now() + DAY_MS + 500)]);
    await sleep(1200);
    await watch.stop();
    expect(read).toContain('7');
  });
});
