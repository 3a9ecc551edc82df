import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Envelope } from '../http/envelope';

/** Requests held while the service starts; more are answered 503 at once, so a flood holds no memory. */
const MOST_HELD = 1000;

export interface HeldUntilReady {
  /** The server's listener from the start: it holds each request until `ready`, then passes them on. */
  listener: RequestListener;
  /** From now on every request goes to `listener`, the held ones first, in the order they came. */
  ready(listener: RequestListener): void;
}

/**
 * The port is bound before the service is ready (a port in use is then told before anything is
 * created), so a request may arrive while it starts: it waits, unanswered, and is answered once the
 * service is ready, as it would have been had it come a moment later.
 */
export function heldUntilReady(most = MOST_HELD): HeldUntilReady {
  let held: [IncomingMessage, ServerResponse][] = [];
  let target: RequestListener | null = null;
  return {
    listener: (req, res) => {
      if (target) return target(req, res);
      if (held.length < most) {
        held.push([req, res]);
        return;
      }
      const body: Envelope = {
        code: 503,
        message: 'the service is starting: try again in a moment',
        data: { error: 'not_ready' },
      };
      res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1' });
      res.end(JSON.stringify(body));
    },
    ready(listener) {
      target = listener;
      const waiting = held;
      held = [];
      // A client that gave up while waiting has closed its connection: nothing to answer.
      for (const [req, res] of waiting) if (!res.destroyed) listener(req, res);
    },
  };
}
