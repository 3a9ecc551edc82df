import { createServer } from 'node:http';
import { createPlatform } from './app';
import { parseSettings } from './config';
import { createLogger } from './log';
import { stopOnSignals } from './shutdown';
import { parseStoreConfig } from './stores/config';
import { openStores } from './stores';

/** The API server; on SIGTERM it stops accepting, finishes requests in flight, then closes the stores. */
export async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const settings = parseSettings(env);
  const storeConfig = parseStoreConfig(env);
  const log = createLogger(settings.LOG_LEVEL);
  const stores = await openStores(storeConfig, log);
  const platform = await createPlatform({
    settings,
    log,
    stores,
    announce: (message) => process.stderr.write(`\n${message}\n\n`),
  });
  const server = createServer(platform.app.callback());
  await new Promise<void>((resolve) => server.listen(settings.PORT, settings.HOST, resolve));
  log.info(
    { port: settings.PORT, stores: storeConfig.mode, projections: settings.PROJECTIONS },
    'platform API listening',
  );
  stopOnSignals(log, async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await platform.close();
  });
}
