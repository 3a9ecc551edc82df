import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { PROJECTIONS } from './compose';
import { openConfiguredStores } from './stores';
import { parseSettings } from './config';
import { exitForRestart, exitOnUnhandled } from './fatal';
import { beat, HEARTBEATS } from './shared/projections/heartbeat';
import { watchBeats } from './shared/projections/watchdog';
import { createLogger } from './log';
import { ProjectionRunner } from './shared/projections/runner';
import { CLOSE_LIMIT_MS, stopOnSignals } from './shutdown';
import { startNotifications } from './notifications';
import { observe } from './observability';
import { PROJECTOR_LEASE, ProjectionsClaimed, type Stores } from './stores/ports';
import { holdLease, leaseTiming, type Tenure } from './shared/projections/tenure';

/**
 * Waits for the projector lease, then claims the projections (the embedded stores' file lock,
 * which a deposed holder still alive keeps until it exits on losing the lease): only then does
 * this process write. From then on every write it makes carries the lease's token.
 */
async function takeOver(
  stores: Stores,
  { ttlMs, log, waited }: { ttlMs: number; log: Logger; waited: () => void },
): Promise<Tenure> {
  const tenure = await holdLease(stores.leases, {
    lease: PROJECTOR_LEASE,
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    ttlMs,
    log,
    onPoll: waited,
    onLost: (reason) => {
      log.fatal({ reason }, 'lost the projector lease; exiting for the supervisor to restart the process');
      process.exit(1);
    },
  });
  stores.documents.fence(tenure.fence);
  for (let attempt = 0; ; attempt += 1) {
    try {
      stores.claimProjections();
      return tenure;
    } catch (err) {
      if (!(err instanceof ProjectionsClaimed)) throw err;
      if (attempt === 0)
        log.info(
          'the projections are still claimed by the deposed holder (or by an API with PROJECTIONS=inline): waiting for it to exit',
        );
      waited();
      await delay(leaseTiming(ttlMs).pollMs);
    }
  }
}

/**
 * The projector: keeps every read model up to date, and sends what follows from the log (webhooks,
 * mail, expiry notices), so that any number of API processes started with PROJECTIONS=off share
 * one writer of the read models and one sender.
 */
export async function project(env: NodeJS.ProcessEnv): Promise<void> {
  const settings = parseSettings(env);
  const log = createLogger(settings.LOG_LEVEL);
  exitOnUnhandled(log);
  const observed = observe(settings, log);
  const stores = observed.meter(await openConfiguredStores(env, log));
  const running: { runner?: ProjectionRunner; tenure?: Tenure } = {};
  // Served while it waits for the lease too, so a waiting projector is seen (holding 0).
  await observed.serve({
    stores,
    projections: {
      // None while it waits: a standby's lag would read as the whole log, and set off PlatformProjectionLagging.
      get names() {
        return running.runner ? PROJECTIONS.map((p) => p.name) : [];
      },
      checkpoint: (name) => running.runner?.follower(name)?.checkpoint,
    },
    leaseHeld: () => running.tenure?.held() ?? false,
  });
  // A waiting projector is healthy too: the container health check reads the file's age.
  const waited = () => settings.HEARTBEAT_FILE && writeFileSync(settings.HEARTBEAT_FILE, new Date().toISOString());
  const tenure = await takeOver(stores, { ttlMs: settings.PROJECTOR_LEASE_MS, log, waited });
  running.tenure = tenure;
  const runner = new ProjectionRunner(stores.events, stores.documents, PROJECTIONS, log, {
    autoUpgrade: settings.AUTO_UPGRADE,
    giveUpMs: settings.PROJECTION_GIVE_UP_MS,
    onGiveUp: exitForRestart(log),
  });
  running.runner = runner;
  await runner.start();
  await stores.documents.ensureCollections([HEARTBEATS]);
  const watchdog = watchBeats((sinceMs) => {
    log.fatal(
      { since_ms: sinceMs },
      'the projector stopped beating (a heartbeat write never ended); exiting for the supervisor to restart the process',
    );
    process.exit(1);
  });
  const stopBeating = await beat(stores.documents, runner, log, {
    stored: (heartbeat) => {
      // The container health check reads the file's age: touched only while the projections run.
      if (settings.HEARTBEAT_FILE && heartbeat.status === 'running')
        writeFileSync(settings.HEARTBEAT_FILE, heartbeat.at);
    },
    settled: () => watchdog.beat(),
  });
  const stopNotifications = await startNotifications(settings, stores, log, observed.notifications);
  // Before saying it runs: a SIGTERM sent on that word must find the handler that flushes.
  stopOnSignals(
    log,
    async () => {
      watchdog.stop();
      await stopNotifications();
      await runner.stop();
      await stopBeating();
      // Ended now, not at its term's end: a waiting projector takes over at its next poll.
      await tenure.release().catch((err: unknown) => log.warn({ err }, 'could not release the projector lease'));
      await stores.close();
      await observed.close();
    },
    CLOSE_LIMIT_MS,
  );
  log.info({ projections: PROJECTIONS.map((p) => p.name) }, 'projector running');
}
