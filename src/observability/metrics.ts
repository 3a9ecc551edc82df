import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BoundHistogram, countOf } from './bound-histogram';
import {
  ATTEMPT_OUTCOMES,
  combinations,
  DOCUMENT_STORE_OPERATIONS,
  EVENT_STORE_OPERATIONS,
  LOGIN_OUTCOMES,
  LOGIN_REALMS,
  MAIL_OUTCOMES,
  STORE_FAILURE_KINDS,
} from './label-values';

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
  // Every series of its known label values at 0 from the start (label-values.ts).
  const counter = <L extends string>(name: string, help: string, values: Record<L, readonly string[]>) => {
    const made = new Counter<L>({ name, help, labelNames: Object.keys(values) as L[], registers });
    for (const labels of combinations(values)) made.inc(labels as Partial<Record<L, string>>, 0);
    return made;
  };
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  // Recorded on the partner lane: bound ahead of its calls (bound-histogram.ts).
  const openApiDuration = new BoundHistogram(
    'platform_open_api_request_duration_seconds',
    'Duration of open-API calls by scope and outcome',
    ['scope', 'outcome'],
    OPEN_API_BUCKETS,
    registry,
  );
  countOf(openApiDuration, 'platform_open_api_requests_total', 'Open-API calls by scope and outcome', registry);
  return {
    registry,
    httpDuration: new BoundHistogram(
      'http_server_request_duration_seconds',
      'Duration of HTTP requests, by method, route template and status code',
      ['http_request_method', 'http_route', 'http_response_status_code'],
      HTTP_BUCKETS,
      registry,
    ),
    openApiDuration,
    eventStoreDuration: histogram(
      'platform_event_store_operation_duration_seconds',
      'Duration of event store operations that completed, by operation (append, read_stream, read_all, head_position)',
      ['operation'],
      STORE_BUCKETS,
    ),
    eventStoreFailures: counter(
      'platform_event_store_failures_total',
      'Event store operations that failed, by operation and kind; a wrong_expected_version append is retried by the command',
      { operation: EVENT_STORE_OPERATIONS, kind: STORE_FAILURE_KINDS },
    ),
    documentStoreDuration: histogram(
      'platform_document_store_operation_duration_seconds',
      'Duration of document store (MongoDB, or SQLite embedded) operations that completed, by operation',
      ['operation'],
      STORE_BUCKETS,
    ),
    documentStoreFailures: counter(
      'platform_document_store_failures_total',
      'Document store (MongoDB, or SQLite embedded) operations that failed, by operation and kind',
      { operation: DOCUMENT_STORE_OPERATIONS, kind: STORE_FAILURE_KINDS },
    ),
    webhookDeliveries: counter(
      'platform_webhook_delivery_attempts_total',
      'Webhook delivery attempts by outcome: delivered, failed (tried again later) or dead (no attempt left)',
      { outcome: ATTEMPT_OUTCOMES },
    ),
    mails: counter(
      'platform_mails_total',
      'Mails handed to the SMTP server (sent) or refused by it or unreachable (failed)',
      { outcome: MAIL_OUTCOMES },
    ),
    mailAttempts: counter(
      'platform_mail_attempts_total',
      'Attempts at outbox mails by outcome: delivered, failed (tried again later) or dead (refused for good, or no attempt left)',
      { outcome: ATTEMPT_OUTCOMES },
    ),
    readModelLagging: counter(
      'platform_read_model_lagging_total',
      "Requests answered 503 read_model_lagging: the read models did not reach the request's own write in time",
      {},
    ),
    logins: counter(
      'platform_logins_total',
      'Logins by realm and outcome: success, wrong_password, limited (a failure limit hit), busy (password checks full), invalid',
      { realm: LOGIN_REALMS, outcome: LOGIN_OUTCOMES },
    ),
    /**
     * A gauge read at each scrape. One whose source cannot be read (a store is down) keeps its last
     * value rather than fail the whole scrape: platform_store_up says why.
     */
    gauge<L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      collect: (g: Gauge<L>) => Promise<void> | void,
    ): Gauge<L> {
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
