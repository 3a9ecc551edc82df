import { createServer } from 'node:http';
import { createPlatform } from './app';
import { parseSettings } from './config';
import { createLogger } from './log';

/** `npm start`: the service on the embedded stores unless EVENTSTORE_URL and MONGODB_URL say otherwise. */
async function main(): Promise<void> {
  const settings = parseSettings(process.env);
  const log = createLogger(settings.LOG_LEVEL);
  const platform = await createPlatform({ settings, log });
  const server = createServer(platform.app.callback());
  server.listen(settings.PORT, settings.HOST, () => {
    log.info({ port: settings.PORT, data_dir: settings.DATA_DIR }, 'platform API listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    server.close(async () => {
      await platform.close();
      log.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`platform API failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
