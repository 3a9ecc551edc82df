import type { Server } from 'node:net';

/**
 * A start-up refusal the operator can act on: the process prints its message as one line on
 * stderr and exits 1, without a stack trace, which would read like a crash.
 */
export class StartupRefusal extends Error {
  override name = 'StartupRefusal';
}

const WHY: Record<string, (variable: string, where: string) => string> = {
  EADDRINUSE: (variable, where) =>
    `${variable} ${where} is in use by another process: stop that process, or set ${variable} to a free port`,
  EACCES: (variable, where) =>
    `${variable} ${where} may not be used by this user (ports below 1024 need privileges): set ${variable} to a port above 1023`,
  EADDRNOTAVAIL: (variable, where) =>
    `${variable} ${where} cannot be bound: the address is not one of this machine's; check the host setting beside ${variable}`,
};

/**
 * Binds `server` to host:port. An error an operator fixes with a setting (the port taken, a port
 * that needs privileges, an address this machine lacks) becomes a StartupRefusal naming the
 * variable that chose the port (`PORT`, `METRICS_PORT`); any other error is left as it is.
 */
export function listenOn(server: Server, port: number, host: string, variable: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const refuse = (err: NodeJS.ErrnoException) => {
      const why = WHY[err.code ?? ''];
      reject(why ? new StartupRefusal(why(variable, `${port} on ${host}`)) : err);
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
}
