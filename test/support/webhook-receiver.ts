import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request the receiver took, and the status it answered. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

export interface WebhookReceiver {
  server: Server;
  /** Where to register the webhook: a loopback address, so the platform needs WEBHOOK_ALLOW_PRIVATE. */
  url: string;
  /** Every request received so far, in order. */
  received: Delivery[];
  close(): Promise<void>;
}

/**
 * A partner's server on a free loopback port that records every delivery and answers `status`
 * (with an empty body unless `reply` is given); a function decides the status from what came before,
 * as a receiver that fails once and then recovers does.
 */
export function webhookReceiver(
  status: number | ((before: Delivery[]) => number) = 204,
  { path = '/hook', reply = '' }: { path?: string; reply?: string } = {},
): Promise<WebhookReceiver> {
  const received: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      const answered = typeof status === 'number' ? status : status(received);
      received.push({ headers: req.headers, body, answered });
      res.statusCode = answered;
      res.end(reply);
    });
  });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, received, close }),
    ),
  );
}
