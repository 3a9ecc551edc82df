import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds, for requests answered from memory up to slow store round trips (OpenTelemetry's HTTP buckets). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
// The open API answers from memory: most of its calls take well under a millisecond.
const OPEN_API_BUCKETS = [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Every metric the service exports, in a registry of this process's platform (not prom-client's
 * global one), so that tests can run several platforms in one process. Label values are bounded
 * by construction: route templates, scope names, fixed outcomes; never an API id, a member or a path.
 * What each means and what to do about it: docs/operations.md.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route template and status code',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    openApiRequests: new Counter({
      name: 'platform_open_api_requests_total',
      help: 'Open-API calls by scope and outcome',
      labelNames: ['scope', 'outcome'] as const,
      registers,
    }),
    openApiDuration: new Histogram({
      name: 'platform_open_api_request_duration_seconds',
      help: 'Duration of open-API calls by scope and outcome',
      labelNames: ['scope', 'outcome'] as const,
      buckets: OPEN_API_BUCKETS,
      registers,
    }),
    eventStoreDuration: new Histogram({
      name: 'platform_event_store_operation_duration_seconds',
      help: 'Duration of event store operations that completed, by operation (append, read_stream, read_all, head_position)',
      labelNames: ['operation'] as const,
      buckets: STORE_BUCKETS,
      registers,
    }),
    eventStoreFailures: new Counter({
      name: 'platform_event_store_failures_total',
      help: 'Event store operations that failed, by operation and kind; a wrong_expected_version append is retried by the command',
      labelNames: ['operation', 'kind'] as const,
      registers,
    }),
    documentStoreDuration: new Histogram({
      name: 'platform_document_store_operation_duration_seconds',
      help: 'Duration of document store (MongoDB, or SQLite embedded) operations that completed, by operation',
      labelNames: ['operation'] as const,
      buckets: STORE_BUCKETS,
      registers,
    }),
    documentStoreFailures: new Counter({
      name: 'platform_document_store_failures_total',
      help: 'Document store (MongoDB, or SQLite embedded) operations that failed, by operation and kind',
      labelNames: ['operation', 'kind'] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'platform_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, failed (tried again later) or dead (no attempt left)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    mails: new Counter({
      name: 'platform_mails_total',
      help: 'Mails handed to the SMTP server (sent) or refused by it or unreachable (failed)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    logins: new Counter({
      name: 'platform_logins_total',
      help: 'Logins by realm and outcome: success, wrong_password, limited (a failure limit hit), busy (password checks full), invalid',
      labelNames: ['realm', 'outcome'] as const,
      registers,
    }),
    /**
     * A gauge read at each scrape. One whose source cannot be read (a store is down) keeps its last
     * value rather than fail the whole scrape: platform_store_up says why.
     */
    gauge<L extends string>(name: string, help: string, labelNames: readonly L[], collect: (g: Gauge<L>) => Promise<void> | void): Gauge<L> {
      return new Gauge<L>({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          try {
            await collect(this);
          } catch {
            // Kept as it was: see above.
          }
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
