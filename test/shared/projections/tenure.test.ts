/**
 * Two projectors' tenures of the projector lease, on two openings of one SQLite data directory,
 * running at the same time: one holds, the other waits; when the holder's renewals stop, the
 * other takes over within PROJECTOR_LEASE_MS, and the deposed holder's late writes are refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { holdLease, leaseTiming, type Tenure } from '../../../src/shared/projections/tenure';
import { LeaseLost, PROJECTOR_LEASE, type Leases, type Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';

// A holder renews every third of the lease and loses it when a renewal is later than the term's
// 90 %: at 300 ms any pause of the test process over 170 ms hands it over, and one did in a
// fresh-clone run with every file in one process. At a second the holder outlasts pauses of 0.56 s.
const LEASE_MS = 1000;
const TIMER_SLACK_MS = 150;
const log = pino({ level: 'silent' });

/** The leases with a switch that makes every renewal hang, as a holder whose loop or network stalled. */
function stallable(leases: Leases): { leases: Leases; stall(): void } {
  let stalled = false;
  return {
    stall: () => (stalled = true),
    leases: {
      acquire: (...args) => leases.acquire(...args),
      renew: (...args) => (stalled ? new Promise(() => undefined) : leases.renew(...args)),
      release: (...args) => leases.release(...args),
      current: (...args) => leases.current(...args),
    },
  };
}

/** Resolves with what the callback is told, once. */
function told<T = void>(): { promise: Promise<T>; tell: (value: T) => void } {
  let tell!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (tell = resolve));
  return { promise, tell };
}

describe('projector tenures on one SQLite data directory', () => {
  let dir: string;
  let a: Stores;
  let b: Stores;
  const tenures: Tenure[] = [];
  const aborts: AbortController[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'platform-tenure-'));
    [a, b] = [openSqliteStores(dir), openSqliteStores(dir)];
  });
  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    await Promise.all(tenures.splice(0).map((t) => t.release().catch(() => undefined)));
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function hold(stores: Stores, holder: string, extra: { leases?: Leases; onLost?: (r: string) => void } = {}) {
    const waiting = told<void>();
    const abort = new AbortController();
    aborts.push(abort);
    const tenure = holdLease(extra.leases ?? stores.leases, {
      lease: PROJECTOR_LEASE,
      holder,
      ttlMs: LEASE_MS,
      log,
      signal: abort.signal,
      onLost: extra.onLost ?? (() => undefined),
      onWaiting: () => waiting.tell(),
    }).then((t) => {
      tenures.push(t);
      return t;
    });
    return { tenure, waiting: waiting.promise };
  }

  it('keeps one holder while the other waits, renewing the lease past many terms', async () => {
    const first = await (await hold(a, 'a')).tenure;
    const second = await hold(b, 'b');
    await second.waiting;
    const settled = await Promise.race([second.tenure.then(() => 'took over'), sleepingFor(4 * LEASE_MS)]);
    expect(settled).toBe('still waiting');
    expect(first.held()).toBe(true);
    expect(await a.leases.current(PROJECTOR_LEASE)).toMatchObject({ holder: 'a', token: first.fence.token });
  });

  it('hands over within PROJECTOR_LEASE_MS once the holder stops renewing, deposes it, and refuses its late writes', async () => {
    const stalling = stallable(a.leases);
    const lost = told<string>();
    const first = await (await hold(a, 'a', { leases: stalling.leases, onLost: lost.tell })).tenure;
    a.documents.fence(first.fence);
    await a.documents.write([{ collection: 'mail_outbox', id: 'm1', doc: { status: 'pending' }, position: '1' }], {
      projection: 'mail',
      position: '1',
    });
    const second = await hold(b, 'b');
    await second.waiting;

    const stalledAt = Date.now();
    stalling.stall();
    const successor = await second.tenure;
    const handedOverMs = Date.now() - stalledAt;
    b.documents.fence(successor.fence);
    // Its last renewal came at the latest when it stalled: a term of 90 % of PROJECTOR_LEASE_MS,
    // and a poll every tenth of it. The slack is the timers' lateness on a busy machine.
    expect(handedOverMs).toBeLessThanOrEqual(LEASE_MS + TIMER_SLACK_MS);
    const { termMs, renewMs, pollMs } = leaseTiming(LEASE_MS);
    expect(handedOverMs).toBeGreaterThanOrEqual(termMs - renewMs - pollMs);
    expect(successor.fence.token).toBeGreaterThan(first.fence.token);
    // The holder learns it by its own clock: its term ran out without a renewal.
    expect(await lost.promise).toMatch(/ran out/);
    expect(first.held()).toBe(false);

    await b.documents.write([{ collection: 'mail_outbox', id: 'm1', doc: { status: 'delivered' }, position: '2' }], {
      projection: 'mail',
      position: '2',
    });
    const late = a.documents.write(
      [{ collection: 'mail_outbox', id: 'm1', doc: { status: 'failed' }, position: '3' }],
      { projection: 'mail', position: '3' },
    );
    await expect(late).rejects.toBeInstanceOf(LeaseLost);
    expect(await b.documents.get('mail_outbox', 'm1')).toMatchObject({ doc: { status: 'delivered' } });
    expect(await b.documents.checkpoint('mail')).toBe('2');
  });

  it('tells a holder whose renewal finds the lease taken that it lost it', async () => {
    const lost = told<string>();
    const first = await (await hold(a, 'a', { onLost: lost.tell })).tenure;
    // Another process took it over (its term was over by the store's account): the next renewal is refused.
    await a.leases.release(PROJECTOR_LEASE, 'a', first.fence.token);
    const successor = await (await hold(b, 'b')).tenure;
    expect(await lost.promise).toMatch(/another process took/);
    expect(successor.fence.token).toBeGreaterThan(first.fence.token);
  });

  it('hands over at the next poll when the holder releases the lease on a clean stop', async () => {
    const first = await (await hold(a, 'a')).tenure;
    const second = await hold(b, 'b');
    await second.waiting;
    const releasedAt = Date.now();
    await first.release();
    await second.tenure;
    expect(Date.now() - releasedAt).toBeLessThan(LEASE_MS);
  });
});

function sleepingFor(ms: number): Promise<string> {
  return new Promise((resolve) => setTimeout(resolve, ms, 'still waiting'));
}
