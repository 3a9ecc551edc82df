import type { Logger } from 'pino';

/**
 * A rejection or exception nobody handled leaves the process in a state nobody planned for (a
 * client library's late callback, a half-done write): log it and exit non-zero, so that the
 * supervisor (`restart: unless-stopped`) starts a clean process. Installed first thing by the
 * API and the projector. The default logger flushes on exit, so the line is out before the process ends.
 */
export function exitOnUnhandled(log: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('unhandledRejection', (reason: unknown) => {
    log.fatal({ err: reason }, 'unhandled promise rejection; exiting for the supervisor to restart the process');
    exit(1);
  });
  process.on('uncaughtException', (err: Error, origin: string) => {
    log.fatal({ err, origin }, 'uncaught exception; exiting for the supervisor to restart the process');
    exit(1);
  });
}

/** For a runner that gave up on an outage: log, and exit non-zero for the supervisor to start a fresh process. */
export function exitForRestart(
  log: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): (err: Error) => void {
  return (err) => {
    log.fatal({ err }, 'gave up waiting for the stores; exiting for the supervisor to restart the process');
    exit(1);
  };
}
