import { AddressInfo } from 'node:net';
import { createPlatform, seedAdministrator } from './app';
import { parseSettings } from './config';
import { drainable } from './shared/http/drain';
import { exitOnUnhandled } from './fatal';
import { createHttpServer } from './shared/http/server';
import { heldUntilReady } from './shared/startup/held-requests';
import { listenOn } from './shared/startup/listen';
import { addressKeyOf } from './shared/http/client-address';
import { createLogger } from './log';
import { CLOSE_LIMIT_MS, stopOnSignals } from './shutdown';
import { openConfiguredStores } from './stores';
import { parseStoreConfig } from './stores/config';

/**
 * The API server. On SIGTERM it stops accepting, finishes the requests in flight within
 * SHUTDOWN_GRACE_MS (cutting what is left after it), then stops the projections, which store their
 * checkpoints, and closes the stores.
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const settings = parseSettings(env);
  const log = createLogger(settings.LOG_LEVEL);
  // Listening first: a port in use is told before anything is created (src/shared/startup).
  const held = heldUntilReady();
  const server = createHttpServer(held.listener, {
    headersTimeoutMs: settings.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: settings.REQUEST_TIMEOUT_MS,
    maxConnectionsPerAddress: settings.MAX_CONNECTIONS_PER_ADDRESS,
    addressKey: addressKeyOf(settings),
  });
  const requests = drainable(server);
  await listenOn(server, settings.PORT, settings.HOST, 'PORT');
  const stores = await openConfiguredStores(env, log);
  exitOnUnhandled(log);
  const announced: string[] = [];
  const options = { settings, log, stores, announce: (message: string) => announced.push(message) };
  const platform = await createPlatform({ ...options, administrator: 'later' });
  await seedAdministrator(options);
  // While requests are held anyway: the console's Contract screen will not wait on the build.
  platform.prepareContract();
  held.ready(platform.listener());
  // Before saying it listens: a SIGTERM sent on that word must find the handler that drains.
  stopOnSignals(
    log,
    async () => {
      const drained = requests.drain(settings.SHUTDOWN_GRACE_MS);
      log.info(
        { in_flight: requests.inFlight(), grace_ms: settings.SHUTDOWN_GRACE_MS },
        'not accepting connections; finishing the requests in flight',
      );
      const { cut } = await drained;
      if (cut > 0)
        log.warn(
          { cut, grace_ms: settings.SHUTDOWN_GRACE_MS },
          'cut requests still unanswered at the end of the grace period',
        );
      // Only now: the requests in flight may have appended events and waited on the projections.
      await platform.close();
    },
    settings.SHUTDOWN_GRACE_MS + CLOSE_LIMIT_MS,
  );
  log.info(
    // The port bound, which PORT=0 leaves to the system.
    {
      port: (server.address() as AddressInfo).port,
      stores: parseStoreConfig(env).mode,
      projections: settings.PROJECTIONS,
    },
    'platform API listening',
  );
  // Only now that it answers: a password shown by a start that then failed would be one nobody can use.
  for (const message of announced) process.stderr.write(`\n${message}\n\n`);
}
