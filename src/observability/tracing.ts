import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  context,
  Context,
  isSpanContextValid,
  Link,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import { Middleware } from 'koa';
import type { Logger } from 'pino';
import { withoutApiKeys } from '../shared/redact';
import { Settings } from '../config';
import { AppState } from '../shared/http/context';
import { TraceContext, tracer } from '../shared/tracing';
import { IMPLEMENTATION_VERSION } from '../version';
import { routeOf } from './http-metrics';

export interface Tracing {
  /** The server's listener with a span around each request. */
  traced(listener: RequestListener, laneRoute: (req: IncomingMessage) => string | undefined): RequestListener;
  /** Names the request's span by the route koa matched. */
  koaRoute: Middleware<AppState>;
  /** Sends the spans still buffered, and unregisters. */
  shutdown(): Promise<void>;
}

/**
 * Traces over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, or null when it is unset: then no tracer
 * provider is registered and the service's spans (src/shared/tracing.ts) are no-ops. The exporter
 * reads OTEL_EXPORTER_OTLP_HEADERS and the other OTLP variables itself.
 */
export function startTracing(settings: Settings, log: Logger): Tracing | null {
  const endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.OTEL_SERVICE_NAME,
      [ATTR_SERVICE_VERSION]: IMPLEMENTATION_VERSION,
    }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` })),
    ],
  });
  // The global provider and W3C trace context, without a context manager: parents are handed down (src/shared/tracing.ts).
  provider.register({ contextManager: null });
  const spans = new WeakMap<IncomingMessage, TraceContext>();
  return {
    traced: (listener, laneRoute) => (req, res) => {
      const method = req.method ?? 'GET';
      const { parent, links } = callersTrace(req, settings.OTEL_TRUST_INCOMING_TRACE);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, links }, parent);
      const route = laneRoute(req);
      // Handed to koa's middleware below with the request, not through an async context (src/shared/tracing.ts).
      if (!route) spans.set(req, trace.setSpan(parent, span));
      // A span the sampler dropped keeps nothing, so nothing is worked out for it: at 1 % sampling
      // that is most partner calls (the samplers OTEL_TRACES_SAMPLER names read no attribute).
      if (!span.isRecording()) return listener(req, res);
      // The path only: a query string is never recorded, and a key pasted into the path is masked.
      span.setAttributes({
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_URL_PATH]: withoutApiKeys((req.url ?? '/').split('?')[0]!),
        [ATTR_URL_SCHEME]: 'http',
      });
      if (route) span.setAttribute(ATTR_HTTP_ROUTE, route).updateName(`${method} ${route}`);
      const requestIdSent = watchRequestId(res);
      res.once('close', () => {
        const status = res.statusCode;
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        const requestId = requestIdSent();
        if (requestId) span.setAttribute('platform.request_id', requestId);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      listener(req, res);
    },
    koaRoute: async (ctx, next) => {
      const here = spans.get(ctx.req);
      if (here) ctx.state.trace = here;
      try {
        await next();
      } finally {
        const route = routeOf(ctx);
        const span = here && trace.getSpan(here);
        span?.setAttribute(ATTR_HTTP_ROUTE, route);
        span?.updateName(`${ctx.method} ${route}`);
      }
    },
    async shutdown() {
      // A collector that cannot be reached must not cut the service's own stop short: the
      // projections' last checkpoints and the stores' close come after this.
      await provider
        .shutdown()
        .catch((err: unknown) =>
          log.warn({ err }, 'the spans still buffered could not be exported to the collector; they are dropped'),
        );
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Where a request's span hangs. A client's traceparent is its own claim: adopted as the parent, it
 * would put the service's spans into a trace the client chose, with its sampling decision (a
 * flood of sampled=01 calls exported at every call, or the opposite). So it is a link, unless
 * OTEL_TRUST_INCOMING_TRACE says the callers are the operator's own services (docs/operations.md).
 */
function callersTrace(req: IncomingMessage, trusted: boolean): { parent: Context; links: Link[] } {
  const incoming = propagation.extract(ROOT_CONTEXT, req.headers);
  if (trusted) return { parent: incoming, links: [] };
  const claimed = trace.getSpanContext(incoming);
  return { parent: ROOT_CONTEXT, links: claimed && isSpanContextValid(claimed) ? [{ context: claimed }] : [] };
}

/**
 * The X-Request-Id an answer goes out with. Koa sets it with setHeader, where getHeader finds it;
 * the partner lane hands its header fields to writeHead at once, which keeps none to be read back,
 * so writeHead is watched, on recorded spans only, rather than the lane asked to do more per call.
 */
function watchRequestId(res: ServerResponse): () => string | undefined {
  let given: unknown;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = typeof args[1] === 'object' ? args[1] : args[2];
    if (headers && !Array.isArray(headers)) given = (headers as Record<string, unknown>)['X-Request-Id'];
    return (writeHead as (...all: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  return () => {
    const id = res.getHeader('x-request-id') ?? given;
    return typeof id === 'string' ? id : undefined;
  };
}
