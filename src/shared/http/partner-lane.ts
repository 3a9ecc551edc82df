import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { requestLineWriter } from '../../log';
import { Eventually } from '../eventually';
import { API_PREFIX, NO_STORE } from './app';
import { Endpoint, LaneAnswer } from './endpoints';
import { Refused, refusalEnvelope } from './envelope';
import { refusalFor } from './errors';
import { HeaderFields } from './rate-limit-fields';
import { clientRequestId } from './request-log';

/** What the gate decided of one partner call. */
export interface PartnerVerdict {
  /** Why the call is refused; null when it may be answered. */
  refusal: Refused | null;
  /** Header fields every answer to it carries (where the API id stands against its rate limit). */
  fields: HeaderFields;
  /** Told the answer's status once it is sent, and the call, so the credential's owner sees it. */
  settle(status: number, call: AnsweredCall): void;
}

/** A partner call as answered: what its owner's recent calls show. */
export interface AnsweredCall {
  method: string;
  path: string;
  latency_ms: number;
}

/** The key check, rate limit and scope check of partner calls, shared by the lane and the router. */
export interface PartnerGate {
  /**
   * At once when the rate-limit counts are in memory (embedded), else once they are counted.
   * Throws when the credentials cannot be checked right now (the key ring cannot vouch).
   * `from` gives the client address, asked only of a call refused for its credential.
   */
  admit(
    apiid: string | undefined,
    key: string | undefined,
    scope: string,
    from: () => string,
  ): Eventually<PartnerVerdict>;
}

/**
 * Told of every call the lane answers, for the operators' metrics. Asked once per route, when the
 * lane is built, so that what it records with is bound ahead of the first call.
 */
export interface LaneMeter {
  forRoute(path: string, scope: string): (error: string | undefined, status: number, seconds: number) => void;
}

const unmetered: LaneMeter = { forRoute: () => () => {} };

export interface PartnerLane {
  /** The endpoint the lane answers this request for; undefined for a request it leaves to koa. */
  route(req: IncomingMessage): Endpoint | undefined;
  /** The server's request listener: the lane's requests answered here, every other one by `next`. */
  in(next: RequestListener): RequestListener;
}

interface Route {
  /** As requested and logged: /api/v1/open/... */
  path: string;
  endpoint: Endpoint;
  scope: string;
  lane: LaneAnswer;
  /** The envelope serialised for the answer's version of the moment. */
  cached: { version: unknown; body: Buffer } | null;
  record: ReturnType<LaneMeter['forRoute']>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const uncounted = (_status: number, _call: AnsweredCall) => {};

/**
 * Partner servers call the open API on every page view. The lane answers those calls ahead of
 * koa, without the session, body parser and router a partner call never needs: the same gate
 * (key check, rate limit, scope), the same envelope, header fields and log line as koa would give,
 * for the endpoints of the one endpoint table that declare a `lane` answer. An answer is serialised
 * once per version of what it is built from; refusals are plain values, serialised once when they
 * do not vary. A request with anything the router would judge (another method, HEAD, a query
 * string, a path spelled otherwise) goes on to koa, which serves the same endpoints behind the same gate.
 */
export function partnerLane(
  endpoints: Endpoint[],
  gate: PartnerGate,
  addressOf: (req: IncomingMessage) => string,
  log: Logger,
  meter: LaneMeter = unmetered,
): PartnerLane {
  const routes = new Map<string, Route>();
  for (const endpoint of endpoints) {
    const { caller, lane } = endpoint;
    if (caller.kind === 'partner' && endpoint.method === 'GET' && lane) {
      const path = `${API_PREFIX}${endpoint.path}`;
      routes.set(path, {
        path,
        endpoint,
        scope: caller.scope,
        lane,
        cached: null,
        record: meter.forRoute(path, caller.scope),
      });
    }
  }
  const writeLine = requestLineWriter(log);
  const lookup = (req: IncomingMessage) => (req.method === 'GET' ? routes.get(req.url ?? '') : undefined);

  async function serve(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = randomUUID();
    const client_request_id = clientRequestId(req.headers['x-request-id']);
    let status: number;
    let error: string | undefined;
    let fields: HeaderFields = [];
    let settle = uncounted;
    try {
      const admitted = gate.admit(header(req, 'x-api-id'), header(req, 'x-api-key'), route.scope, () => addressOf(req));
      // Each awaited only when it is a promise: an await costs a turn of the microtask queue.
      const verdict = admitted instanceof Promise ? await admitted : admitted;
      ({ fields, settle } = verdict);
      if (verdict.refusal) {
        status = refuse(res, requestId, fields, verdict.refusal);
        error = verdict.refusal.error;
      } else {
        const body = bodyOf(route);
        status = answer(res, requestId, fields, body instanceof Promise ? await body : body);
      }
    } catch (err) {
      const refusal = refusalFor(err, () => log.child({ request_id: requestId, client_request_id }));
      status = refuse(res, requestId, fields, refusal);
      error = refusal.error;
    }
    const duration_ms = performance.now() - started;
    // A body that could not be built counts as refused, as the router counts it.
    settle(status, { method: 'GET', path: route.path, latency_ms: duration_ms });
    route.record(error, status, duration_ms / 1000);
    writeLine({ request_id: requestId, client_request_id, method: 'GET', path: route.path, status, duration_ms });
  }

  return {
    route: (req) => lookup(req)?.endpoint,
    in: (next) => (req, res) => {
      const route = lookup(req);
      // Only what the envelope could not answer gets here, as koa's 'error' event: a failure once the answer had started.
      if (route) serve(route, req, res).catch((err: unknown) => log.error({ err }, 'response failed after it started'));
      else void next(req, res);
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The serialised answer: the cached one while its version holds, without a promise of its own. */
function bodyOf(route: Route): Buffer | Promise<Buffer> {
  // Asked on every call: it throws when the answer cannot be given now, cached or not.
  const version = route.lane.version?.();
  if (version !== undefined && route.cached?.version === version) return route.cached.body;
  return serialised(route, version);
}

async function serialised(route: Route, version: unknown): Promise<Buffer> {
  const { data, message = 'ok' } = await route.lane.answer();
  const body = Buffer.from(JSON.stringify({ code: 0, message, data }));
  // Keyed by the version read before the answer was built: at worst a newer answer is rebuilt once.
  if (version !== undefined) route.cached = { version, body };
  return body;
}

function answer(res: ServerResponse, requestId: string, fields: HeaderFields, body: Buffer): number {
  write(res, 200, requestId, fields, undefined, body);
  return 200;
}

const refusalBodies = new WeakMap<Refused, Buffer>();

function refuse(res: ServerResponse, requestId: string, fields: HeaderFields, refusal: Refused): number {
  let body = refusalBodies.get(refusal);
  if (!body) refusalBodies.set(refusal, (body = Buffer.from(JSON.stringify(refusalEnvelope(refusal)))));
  write(res, refusal.status, requestId, fields, refusal.headers, body);
  return refusal.status;
}

function write(
  res: ServerResponse,
  status: number,
  requestId: string,
  fields: HeaderFields,
  more: Record<string, string> | undefined,
  body: Buffer,
): void {
  const headers: Record<string, string | number> = {
    'X-Request-Id': requestId,
    'Cache-Control': NO_STORE['Cache-Control'],
    'X-Content-Type-Options': NO_STORE['X-Content-Type-Options'],
  };
  for (const [name, value] of fields) headers[name] = value;
  if (more) for (const name in more) headers[name] = more[name]!;
  headers['Content-Type'] = JSON_TYPE;
  headers['Content-Length'] = body.length;
  res.writeHead(status, headers);
  res.end(body);
}
