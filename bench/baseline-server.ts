/**
 * The baseline of (c): a bare koa 3 server in its own process that answers every request with
 * the bytes the service answered to (a): the same status, header fields (their values as captured
 * once: the request id and the remaining allowance do not change) and body, precomputed. The gap
 * between the two is what the service's own work costs: request log, middleware, router, key
 * check, rate limit, envelope and JSON serialisation.
 * Child process: receives the answer over IPC, replies with the port it listens on.
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import Koa from 'koa';

export interface CannedAnswer {
  status: number;
  headers: Record<string, string>;
  /** base64: IPC carries JSON. */
  body: string;
}

process.once('message', (answer: CannedAnswer) => {
  const body = Buffer.from(answer.body, 'base64');
  const app = new Koa();
  app.use((ctx) => {
    ctx.status = answer.status;
    ctx.set(answer.headers);
    ctx.body = body;
  });
  const server = createServer(app.callback());
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  // The parent went away: nothing is left to measure.
  process.once('disconnect', () => process.exit(0));
});
