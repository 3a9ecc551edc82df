import { performance } from 'node:perf_hooks';
import { Middleware } from 'koa';
import { AppContext, AppState } from '../shared/http/context';
import { HttpError } from '../shared/http/envelope';
import { OpenApiOutcomes } from '../shared/http/open-api-refusals';
import { LaneMeter } from '../shared/http/partner-lane';
import { Metrics } from './metrics';

/** The route label of every request no route matched (unknown paths, the console's files): one series, whatever the path. */
export const UNMATCHED = 'unmatched';

// OpenTelemetry's rule: a method outside the standard ones is recorded as _OTHER, so no client can add series.
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);
const methodLabel = (method: string) => (METHODS.has(method) ? method : '_OTHER');

const templates = new Map<string, string>();

/** `/api/v1/credentials/:member_id/approve` as the endpoint table and OpenAPI write it: `/api/v1/credentials/{member_id}/approve`. */
export function routeTemplate(koaPath: string): string {
  let template = templates.get(koaPath);
  if (template === undefined) templates.set(koaPath, (template = koaPath.replace(/:(\w+)/g, '{$1}')));
  return template;
}

/** The route template koa's router matched, or UNMATCHED. */
export function routeOf(ctx: AppContext): string {
  const matched = (ctx as AppContext & { _matchedRoute?: string | RegExp })._matchedRoute;
  return typeof matched === 'string' ? routeTemplate(matched) : UNMATCHED;
}

/** Times every request koa answers, labelled by method, route template and status. */
export function httpMetrics(metrics: Metrics): Middleware<AppState> {
  const bound = new Map<string, (seconds: number) => void>();
  const recorder = (method: string, route: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let record = bound.get(key);
    if (!record)
      bound.set(
        key,
        (record = metrics.httpDuration.bind({
          http_request_method: method,
          http_route: route,
          http_response_status_code: String(status),
        })),
      );
    return record;
  };
  // Present from the start: the first unknown path adds no series either.
  recorder('GET', UNMATCHED, 404);
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      recorder(methodLabel(ctx.method), routeOf(ctx), ctx.status)((performance.now() - started) / 1000);
      if (ctx.status === 503 && refusalOf(ctx.body) === 'read_model_lagging') metrics.readModelLagging.inc();
    }
  };
}

/** The stable reason of an envelope's refusal (`data.error`), if the body is one. */
function refusalOf(body: unknown): unknown {
  return (body as { data?: { error?: unknown } } | null)?.data?.error;
}

type Recorder = ReturnType<LaneMeter['forRoute']>;

/** Records open-API calls of one scope; what it records with is bound once, not per call. */
function scopeRecorder(
  metrics: Metrics,
  outcomes: OpenApiOutcomes,
  scope: string,
): (outcome: string, seconds: number) => void {
  // Every outcome bound now, so shown from the start at 0: a rate over it is defined before the first refusal.
  const bound = new Map(outcomes.all.map((outcome) => [outcome, metrics.openApiDuration.bind({ scope, outcome })]));
  return (outcome, seconds) => bound.get(outcome)!(seconds);
}

/** The partner lane's meter: the open-API outcome and the request histogram, bound per route ahead of the first call. */
export function laneMeter(metrics: Metrics, outcomes: OpenApiOutcomes): LaneMeter {
  return {
    forRoute(path, scope): Recorder {
      const record = scopeRecorder(metrics, outcomes, scope);
      // A handful of statuses per route (200, 401, 403, 429, 503): each bound the first time it is answered.
      const byStatus = new Map<number, (seconds: number) => void>();
      return (error, status, seconds) => {
        record(outcomes.of(error, status), seconds);
        let http = byStatus.get(status);
        if (!http)
          byStatus.set(
            status,
            (http = metrics.httpDuration.bind({
              http_request_method: 'GET',
              http_route: path,
              http_response_status_code: String(status),
            })),
          );
        http(seconds);
      };
    },
  };
}

/** The partner guard of the calls koa answers (HEAD, a query string), counted as the lane counts its own. */
export function meteredPartnerGuard(
  metrics: Metrics,
  outcomes: OpenApiOutcomes,
  scope: string,
  guard: Middleware<AppState>,
): Middleware<AppState> {
  const record = scopeRecorder(metrics, outcomes, scope);
  return async (ctx, next) => {
    const started = performance.now();
    let outcome = 'unavailable';
    try {
      await guard(ctx, next);
      outcome = outcomes.of(undefined, ctx.status);
    } catch (err) {
      // Anything but a refusal is answered 5xx: unavailable, to the partner.
      outcome = err instanceof HttpError ? outcomes.of(err.error, err.status) : 'unavailable';
      throw err;
    } finally {
      record(outcome, (performance.now() - started) / 1000);
    }
  };
}
