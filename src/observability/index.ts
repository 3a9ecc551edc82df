import type { IncomingMessage, RequestListener } from 'node:http';
import { Registry } from 'prom-client';
import { Middleware } from 'koa';
import type { Logger } from 'pino';
import { Settings } from '../config';
import { REGISTRY } from '../compose';
import { NotificationMeters } from '../notifications';
import { AuthenticationFailed } from '../shared/commands/errors';
import { AppState } from '../shared/http/context';
import { LoginRealm } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { openApiOutcomes } from '../shared/http/open-api-refusals';
import { LaneMeter, PartnerLane } from '../shared/http/partner-lane';
import { API_PREFIX } from '../shared/http/app';
import { Stores } from '../stores/ports';
import { httpMetrics, laneMeter, meteredPartnerGuard } from './http-metrics';
import { LoginOutcome } from './label-values';
import { createMetrics, Metrics } from './metrics';
import { listenForMetrics, MetricsListener } from './metrics-server';
import { ObservedState, registerStateGauges } from './state-metrics';
import { meteredStores } from './store-metrics';
import { startTracing } from './tracing';

/** Everything the operators see of one process: its metrics, its listener for them, its traces. */
export interface Observability {
  /** Empty when METRICS_PORT is off. */
  registry: Registry;
  /** The stores, their calls timed and failures counted. */
  meter(stores: Stores): Stores;
  /** koa middleware, first of all: the request histogram (and the route of the request's span). */
  koa: Middleware<AppState>[];
  lane?: LaneMeter;
  partnerGuard(scope: string, guard: Middleware<AppState>): Middleware<AppState>;
  loginGuard(realm: LoginRealm, guard: Middleware<AppState>): Middleware<AppState>;
  notifications?: NotificationMeters;
  /** The HTTP server's listener, with a span per request when tracing. */
  listener(inner: RequestListener, lane: PartnerLane): RequestListener;
  /** Registers the gauges of what this process holds and starts the metrics listener (unless METRICS_PORT is off). */
  serve(state: ObservedState): Promise<MetricsListener | null>;
  close(): Promise<void>;
}

function loginOutcome(err: unknown): LoginOutcome {
  if (err instanceof AuthenticationFailed) return 'wrong_password';
  if (err instanceof HttpError && err.status === 429) return 'limited';
  if (err instanceof HttpError && err.status === 503) return 'busy';
  return 'invalid';
}

/**
 * The metrics and traces of one process. With METRICS_PORT off nothing is measured at all (no
 * registry filled, no store call timed, nothing recorded on the partner lane), so that off costs
 * nothing and a benchmark of on against off shows what the metrics cost.
 */
export function observe(settings: Settings, log: Logger): Observability {
  const tracing = startTracing(settings, log);
  const traced = {
    koa: tracing ? [tracing.koaRoute] : [],
    listener: (inner: RequestListener, lane: PartnerLane) => (tracing ? tracing.traced(inner, laneRoute(lane)) : inner),
  };
  if (settings.METRICS_PORT === 'off') {
    return {
      ...traced,
      registry: new Registry(),
      meter: (stores) => stores,
      partnerGuard: (_scope, guard) => guard,
      loginGuard: (_realm, guard) => guard,
      serve: async () => null,
      close: async () => tracing?.shutdown(),
    };
  }
  const port = settings.METRICS_PORT;
  const metrics = createMetrics();
  const outcomes = openApiOutcomes(REGISTRY.openApiRefusals);
  let listening: MetricsListener | null = null;
  return {
    registry: metrics.registry,
    meter: (stores) => meteredStores(stores, metrics),
    koa: [httpMetrics(metrics), ...traced.koa],
    listener: traced.listener,
    lane: laneMeter(metrics, outcomes),
    partnerGuard: (scope, guard) => meteredPartnerGuard(metrics, outcomes, scope, guard),
    loginGuard: (realm, guard) => meteredLogin(metrics, realm, guard),
    notifications: {
      webhookAttempted: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
      mailAttempted: (outcome) => metrics.mailAttempts.inc({ outcome }),
      mailed: (outcome) => metrics.mails.inc({ outcome }),
    },
    async serve(state) {
      registerStateGauges(metrics, state);
      listening = await listenForMetrics(metrics.registry, port, settings.METRICS_HOST, log);
      return listening;
    },
    async close() {
      await listening?.close();
      await tracing?.shutdown();
    },
  };
}

/** The route of a request the partner lane answers, for its span. */
const laneRoute = (lane: PartnerLane) => (req: IncomingMessage) => {
  const endpoint = lane.route(req);
  return endpoint && `${API_PREFIX}${endpoint.path}`;
};

function meteredLogin(metrics: Metrics, realm: LoginRealm, guard: Middleware<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    let outcome: LoginOutcome = 'invalid';
    try {
      await guard(ctx, next);
      outcome = 'success';
    } catch (err) {
      outcome = loginOutcome(err);
      throw err;
    } finally {
      metrics.logins.inc({ realm, outcome });
    }
  };
}
