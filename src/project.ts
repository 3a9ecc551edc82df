import { writeFileSync } from 'node:fs';
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

/**
 * The projector: keeps every read model up to date, and sends what follows from the log (webhooks,
 * mail, expiry notices), so that any number of API processes started with PROJECTIONS=off share
 * one writer of the read models and one sender.
 */
export async function project(env: NodeJS.ProcessEnv): Promise<void> {
  const settings = parseSettings(env);
  const log = createLogger(settings.LOG_LEVEL);
  const observed = observe(settings, log);
  const stores = observed.meter(await openConfiguredStores(env, log));
  stores.claimProjections();
  const runner = new ProjectionRunner(stores.events, stores.documents, PROJECTIONS, log, {
    autoUpgrade: settings.AUTO_UPGRADE,
    giveUpMs: settings.PROJECTION_GIVE_UP_MS,
    onGiveUp: exitForRestart(log),
  });
  exitOnUnhandled(log);
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
  await observed.serve({
    stores,
    projections: { names: PROJECTIONS.map((p) => p.name), checkpoint: (name) => runner.follower(name)?.checkpoint },
  });
  // Before saying it runs: a SIGTERM sent on that word must find the handler that flushes.
  stopOnSignals(
    log,
    async () => {
      watchdog.stop();
      await stopNotifications();
      await runner.stop();
      await stopBeating();
      await stores.close();
      await observed.close();
    },
    CLOSE_LIMIT_MS,
  );
  log.info({ projections: PROJECTIONS.map((p) => p.name) }, 'projector running');
}
