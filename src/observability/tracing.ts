import type { IncomingMessage, RequestListener } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
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
import { withoutApiKeys } from '../shared/redact';
import { Settings } from '../config';
import { AppState } from '../shared/http/context';
import { tracer } from '../shared/tracing';
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
export function startTracing(settings: Settings): Tracing | null {
  const endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.OTEL_SERVICE_NAME, [ATTR_SERVICE_VERSION]: IMPLEMENTATION_VERSION }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))],
  });
  // The global provider, an AsyncLocalStorage context (so a command's span finds its request's) and W3C trace context.
  provider.register();
  return {
    traced: (listener, laneRoute) => (req, res) => {
      const method = req.method ?? 'GET';
      // The path only: a query string is never recorded, and a key pasted into the path is masked.
      const path = withoutApiKeys((req.url ?? '/').split('?')[0]!);
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: path, [ATTR_URL_SCHEME]: 'http' } }, parent);
      const route = laneRoute(req);
      if (route) span.setAttribute(ATTR_HTTP_ROUTE, route).updateName(`${method} ${route}`);
      res.once('close', () => {
        const status = res.statusCode;
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        const requestId = res.getHeader('x-request-id');
        if (typeof requestId === 'string') span.setAttribute('platform.request_id', requestId);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      // The partner lane answers from memory and starts no span of its own: carrying the span in
      // the async context (AsyncLocalStorage) there would cost more than the span (docs/operations.md).
      if (route) listener(req, res);
      else context.with(trace.setSpan(parent, span), () => listener(req, res));
    },
    koaRoute: async (ctx, next) => {
      try {
        await next();
      } finally {
        const route = routeOf(ctx);
        const span = trace.getActiveSpan();
        span?.setAttribute(ATTR_HTTP_ROUTE, route);
        span?.updateName(`${ctx.method} ${route}`);
      }
    },
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
