import type { Logger } from 'pino';

/**
 * SIGTERM or SIGINT runs `stop` once, then exits 0 (1 when stopping failed). A second signal
 * while stopping is ignored, so an impatient Ctrl-C cannot cut a checkpoint flush short.
 */
export function stopOnSignals(log: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    stop().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
