import { STARTUP_BACKOFF, backoffCeiling } from '../../../src/stores/eventstoredb/backoff';
import { retryStartup, type StartupRetryDeps } from '../../../src/stores/production';

/** A virtual clock: sleeping advances it, so the 30 s budget passes in no real time. */
function virtualDeps(budgetMs = 30_000) {
  let clock = 0;
  const sleeps: number[] = [];
  const warnings: string[] = [];
  const deps: StartupRetryDeps = {
    budgetMs,
    random: () => 0.5,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    log: { warn: (_obj, msg) => warnings.push(msg) },
  };
  return { deps, sleeps, warnings, elapsed: () => clock };
}

describe('start-up retries', () => {
  it('returns as soon as an attempt succeeds', async () => {
    const { deps, sleeps, warnings } = virtualDeps();
    let calls = 0;
    const result = await retryStartup(
      'MongoDB at mongodb://db/platform',
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('connect ECONNREFUSED');
        return 'connected';
      },
      deps,
    );
    expect(result).toBe('connected');
    expect(sleeps).toHaveLength(2);
    expect(warnings).toEqual([
      'MongoDB at mongodb://db/platform not reachable yet; retrying',
      'MongoDB at mongodb://db/platform not reachable yet; retrying',
    ]);
  });

  it('waits on the back-off schedule, then gives up within the budget, naming the server', async () => {
    const { deps, sleeps, elapsed } = virtualDeps();
    const failing = retryStartup(
      'EventStoreDB at esdb://es:2113?tls=false',
      async () => {
        throw new Error('14 UNAVAILABLE: No connection established');
      },
      deps,
    );
    await expect(failing).rejects.toThrow(
      /^EventStoreDB at esdb:\/\/es:2113\?tls=false is unreachable: \d+ attempts in \d+\.\d s failed, the last with: 14 UNAVAILABLE: No connection established$/,
    );
    expect(sleeps.map((ms, attempt) => ms <= backoffCeiling(attempt, STARTUP_BACKOFF))).not.toContain(false);
    expect(elapsed()).toBeLessThanOrEqual(30_000);
    expect(elapsed()).toBeGreaterThan(30_000 - STARTUP_BACKOFF.maxMs);
  });

  it('keeps the last failure as the cause', async () => {
    const { deps } = virtualDeps(0);
    const last = new Error('auth failed');
    const error = await retryStartup(
      'MongoDB at mongodb://db/platform',
      async () => {
        throw last;
      },
      deps,
    ).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ cause: last, message: expect.stringContaining('1 attempt in 0.0 s') });
  });
});
