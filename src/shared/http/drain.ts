import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const ANSWERING = Symbol('the answer being given on this connection');
type Connection = Socket & { [ANSWERING]?: ServerResponse };

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
  // Tracked per connection, not per request: a keep-alive connection serves many requests, and
  // this runs on each of them, the partner calls of the open API included.
  const connections = new Set<Connection>();
  let draining = false;
  const closeIdle = () => setImmediate(() => server.closeIdleConnections());
  const answering = (connection: Connection) => {
    const res = connection[ANSWERING];
    return res !== undefined && !res.writableFinished ? [res] : [];
  };
  const inFlight = () => [...connections].flatMap(answering);
  // Once draining: this answer closes its connection, and the connections idle after it are closed.
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', closeIdle);
  };

  server.on('connection', (socket: Connection) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // First, before the application's listener can answer.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    (req.socket as Connection)[ANSWERING] = res;
    if (draining) closeAfter(res);
  });

  return {
    inFlight: () => inFlight().length,
    drain(graceMs) {
      draining = true;
      for (const res of inFlight()) closeAfter(res);
      return new Promise((resolve) => {
        let cut = 0;
        const grace = setTimeout(() => {
          cut = inFlight().length;
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
