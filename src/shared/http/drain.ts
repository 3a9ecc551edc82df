import type { Server, ServerResponse } from 'node:http';

export interface Drained {
  /** Requests still unanswered when the grace period ended, whose connections were closed under them. */
  cut: number;
}

export interface Drainable {
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * Stops accepting connections and lets the requests in flight finish, each answer closing its
   * connection; resolves once every connection is closed, cutting those still open after `graceMs`.
   */
  drain(graceMs: number): Promise<Drained>;
}

/**
 * Graceful stopping for an HTTP server. Node's server.close() stops accepting and closes the
 * keep-alive connections idle at that moment, but a keep-alive connection busy then would be
 * answered with `Connection: keep-alive` and held open until its idle timeout, and a request that
 * never ends would hold the process forever. So every answer given while draining says
 * `Connection: close`, connections are closed as soon as they fall idle, and the grace period
 * bounds the wait.
 */
export function drainable(server: Server): Drainable {
  const answering = new Set<ServerResponse>();
  let draining = false;
  const closeIdle = () => setImmediate(() => server.closeIdleConnections());

  // One function for every response, not a closure each: this runs on every request.
  function answered(this: ServerResponse) {
    answering.delete(this);
    // An answer that went out before draining began left its connection keep-alive.
    if (draining) closeIdle();
  }

  // First, before the application's listener can answer.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    answering.add(res);
    res.on('close', answered);
  });

  return {
    inFlight: () => answering.size,
    drain(graceMs) {
      draining = true;
      for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
      return new Promise((resolve) => {
        let cut = 0;
        const grace = setTimeout(() => {
          cut = answering.size;
          server.closeAllConnections();
        }, graceMs);
        server.close(() => {
          clearTimeout(grace);
          resolve({ cut });
        });
      });
    },
  };
}
