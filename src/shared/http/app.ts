import Router from '@koa/router';
import Koa, { Middleware } from 'koa';
import type { Logger } from 'pino';
import { anonymousSessionMinutes, Settings } from '../../config';
import { IdempotencyRecords, SessionStore } from '../../stores/ports';
import { jsonBody } from './body';
import { webConsole } from './console';
import { AppContext, AppState } from './context';
import { Endpoint, Guards, mountEndpoints } from './endpoints';
import { HttpError } from './envelope';
import { errorEnvelope } from './errors';
import { requestLog } from './request-log';
import { withStoreBudget } from '../../stores/budget';
import { sessions } from './session';

export const API_PREFIX = '/api/v1';

/** Answers carry sessions and credentials: no cache may keep them, no browser may sniff them. */
export const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

const noStore: Middleware<AppState> = async (ctx, next) => {
  ctx.set(NO_STORE);
  await next();
};

/**
 * A path some route serves, asked with a method none of them does, is 405 with Allow in the
 * envelope: OPTIONS and methods the router does not implement (TRACE) included, which the
 * router's own allowedMethods() would answer 200 without a body, or 501.
 */
const methodNotAllowed: Middleware<AppState> = async (ctx, next) => {
  await next();
  if (ctx.body !== undefined || ctx.status !== 404) return;
  const matched = (ctx as { matched?: { methods: string[] }[] }).matched ?? [];
  const allowed = [...new Set(matched.flatMap((layer) => layer.methods))].join(', ');
  if (allowed)
    throw new HttpError(405, 'method_not_allowed', `${ctx.path} allows ${allowed} only`, undefined, { Allow: allowed });
};

export interface HttpDeps {
  settings: Settings;
  log: Logger;
  sessionStore: SessionStore;
  /** Where the first answers under idempotency keys are kept. */
  idempotency: IdempotencyRecords;
  /** Whether a client may store one more session without an identity (one over its quota is kept nowhere). */
  admitAnonymousSession(ctx: { ip: string }): Promise<boolean>;
  endpoints: Endpoint[];
  guards: Guards;
  /** Run first, around everything koa does: the operators' metrics and traces. */
  instruments?: Middleware<AppState>[];
}

// Partner servers authenticate with API keys on every call; a session lookup would be wasted.
const OPEN_API = `${API_PREFIX}/open/`;

export function createHttpApp(deps: HttpDeps): { app: Koa<AppState>; router: Router<AppState> } {
  const app = new Koa<AppState>();
  // Only the entry our own proxy appended: the ones before it are whatever the client sent.
  app.proxy = deps.settings.TRUST_PROXY;
  app.maxIpsCount = 1;
  const router = new Router<AppState>({ prefix: API_PREFIX });
  mountEndpoints(router, deps.endpoints, deps.guards, jsonBody(deps.settings.BODY_LIMIT_KB), deps.idempotency);
  const sessionMiddleware = sessions(app, deps.sessionStore, {
    idleMs: deps.settings.SESSION_IDLE_MINUTES * 60_000,
    anonymousMs: anonymousSessionMinutes(deps.settings) * 60_000,
    admitAnonymous: deps.admitAnonymousSession,
    secureCookie: deps.settings.COOKIE_SECURE,
  });

  // Only what the envelope could not answer gets here: a streamed body that failed after its headers went out.
  app.on('error', (err: unknown, ctx?: AppContext) =>
    (ctx?.state.log ?? deps.log).error({ err }, 'response failed after it started'),
  );
  for (const instrument of deps.instruments ?? []) app.use(instrument);
  app.use(requestLog(deps.log));
  app.use(errorEnvelope);
  // Inside the envelope, around the session's loading and saving: one budget for all the request's store work.
  app.use((_ctx, next) => withStoreBudget(deps.settings.REQUEST_STORE_BUDGET_MS, next));
  // Before noStore and sessions: the console's files set their own caching and need no session.
  app.use(webConsole());
  app.use(noStore);
  app.use((ctx, next) => (ctx.path.startsWith(OPEN_API) ? next() : sessionMiddleware(ctx, next)));
  app.use(methodNotAllowed);
  app.use(router.routes());
  return { app, router };
}
