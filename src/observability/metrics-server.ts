import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { listenOn } from '../shared/startup/listen';

export interface MetricsListener {
  /** Where it listens: METRICS_PORT, or the port the system gave for 0. */
  address(): AddressInfo;
  close(): Promise<void>;
}

/**
 * GET /metrics in the Prometheus text format, on a listener of its own (METRICS_HOST:METRICS_PORT),
 * so that the API's port never shows it and a firewall can keep it to the scraper. Anything else
 * there is 404.
 */
export async function listenForMetrics(
  registry: Registry,
  port: number,
  host: string,
  log: Logger,
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Not found: metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        log.error({ err }, 'metrics could not be collected');
        res
          .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
          .end('metrics could not be collected: see the service log\n');
      },
    );
  });
  await listenOn(server, port, host, 'METRICS_PORT');
  log.info({ port: (server.address() as AddressInfo).port, host }, 'metrics listening at GET /metrics');
  return {
    address: () => server.address() as AddressInfo,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
