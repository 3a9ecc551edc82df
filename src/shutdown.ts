import type { Logger } from 'pino';

/**
 * What stopping may take once the requests in flight are done or cut: the stores' own time limits
 * are well inside it, so only a hang reaches it (a store that never answers a close, a loop that
 * missed its stop), and a process that would otherwise wait for the orchestrator's SIGKILL exits
 * by itself, saying so.
 */
export const CLOSE_LIMIT_MS = 20_000;

/**
 * SIGTERM or SIGINT runs `stop` once, then exits 0 (1 when stopping failed, or did not end within
 * `limitMs`). A second signal while stopping is ignored, so an impatient Ctrl-C cannot cut a
 * checkpoint flush short. Returns what removes the handlers (for tests).
 */
export function stopOnSignals(log: Logger, stop: () => Promise<void>, limitMs: number): () => void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    const hung = setTimeout(() => {
      log.error({ limit_ms: limitMs }, 'stopping did not end in time; exiting without it');
      process.exit(1);
    }, limitMs);
    hung.unref();
    stop().then(
      () => {
        clearTimeout(hung);
        log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        clearTimeout(hung);
        log.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  return () => {
    process.off('SIGTERM', handle);
    process.off('SIGINT', handle);
  };
}
