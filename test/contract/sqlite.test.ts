import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openSqliteStores } from '../../src/stores/sqlite';
import { documentStoreContract } from './document-store.contract';
import { eventStoreContract } from './event-store.contract';
import { idempotencyContract } from './idempotency.contract';
import { leaseContract } from './lease.contract';
import { nameClaimsContract } from './name-claims.contract';
import { rateLimitsContract } from './rate-limits.contract';
import { sessionStoreContract } from './session-store.contract';
import { raceThreads, THREADS } from './sqlite-support';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platform-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite event store', () => {
  eventStoreContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.events, teardown: () => stores.close() };
  });
});

describe('SQLite event store: names claimed', () => {
  nameClaimsContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.events, teardown: () => stores.close() };
  });
});

describe('SQLite document store', () => {
  documentStoreContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.documents, teardown: () => stores.close() };
  });
});

describe('SQLite idempotency records', () => {
  idempotencyContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.documents, teardown: () => stores.close() };
  });
});

describe('SQLite leases and fenced writes, two openings of one data directory', () => {
  leaseContract(async () => {
    const [one, other] = [openSqliteStores(dir), openSqliteStores(dir)];
    return {
      store: { one, other },
      teardown: async () => {
        await one.close();
        await other.close();
      },
    };
  });
});

describe('SQLite leases asked for by several threads at once, each with its own connection', () => {
  it(`grants a free lease to exactly one of ${THREADS} threads released at the same moment`, async () => {
    const stores = openSqliteStores(dir);
    const lease = `race-${randomUUID()}`;
    try {
      const results = await raceThreads<{ threadId: number; term: unknown; error?: string }>('sqlite-lease-worker.js', {
        file: join(dir, 'platform.db'),
        lease,
      });
      expect(results.filter((r) => r.error)).toEqual([]);
      const granted = results.filter((r) => r.term !== null);
      expect(granted).toHaveLength(1);
      expect(await stores.leases.current(lease)).toEqual({
        holder: `thread-${granted[0]!.threadId}`,
        token: 1,
        expiresAt: expect.any(Number),
      });
    } finally {
      await stores.close();
    }
  }, 60_000);
});

describe('SQLite session store', () => {
  sessionStoreContract(async () => {
    const stores = openSqliteStores(dir);
    return { store: stores.sessions, teardown: () => stores.close() };
  });
});

describe('SQLite rate limits, two openings of one data directory', () => {
  rateLimitsContract(async () => {
    const [one, other] = [openSqliteStores(dir), openSqliteStores(dir)];
    return {
      store: { one: one.rateLimits, other: other.rateLimits },
      teardown: async () => {
        await Promise.all([one.close(), other.close()]);
      },
    };
  });

  it(`admits exactly its points of attempts raced by ${THREADS} threads, each on its own connection`, async () => {
    const policy = { name: `raced-${randomUUID()}`, points: 5, windowSeconds: 60, blockSeconds: 900 };
    const allowed = await raceThreads<number>('sqlite-count-worker.js', {
      file: join(dir, 'rate-limits.db'),
      policy,
      attempts: 3,
    });
    expect(allowed.reduce((a, b) => a + b, 0)).toBe(5);
  }, 60_000);

  it('keeps hot counts in memory: counting them writes nothing, not even the file', async () => {
    const fresh = join(dir, `hot-${randomUUID()}`);
    const stores = openSqliteStores(fresh);
    try {
      const limiter = await stores.rateLimits.limiter({
        name: 'hot',
        points: 1,
        windowSeconds: 60,
        blockSeconds: 0,
        hot: true,
      });
      expect(await limiter.consume('k')).toMatchObject({ allowed: true });
      expect(await limiter.consume('k')).toMatchObject({ allowed: false });
      expect(existsSync(join(fresh, 'rate-limits.db'))).toBe(false);
    } finally {
      await stores.close();
    }
  });

  it('purges expired counts, which are never read again, when it opens the file', async () => {
    const fresh = join(dir, `purge-${randomUUID()}`);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const first = openSqliteStores(fresh);
      await (
        await first.rateLimits.limiter({ name: 'expiring', points: 1, windowSeconds: 1, blockSeconds: 0 })
      ).consume('k');
      await (
        await first.rateLimits.limiter({ name: 'lasting', points: 1, windowSeconds: 3600, blockSeconds: 0 })
      ).consume('k');
      await first.close();
      clock.mockReturnValue(now + 2000);
      const second = openSqliteStores(fresh);
      await second.rateLimits.limiter({ name: 'any', points: 1, windowSeconds: 1, blockSeconds: 0 });
      await second.close();
    } finally {
      clock.mockRestore();
    }
    const db = new BetterSqlite3(join(fresh, 'rate-limits.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT key FROM rate_limits').all()).toEqual([{ key: 'lasting:k' }]);
    } finally {
      db.close();
    }
  });
});
