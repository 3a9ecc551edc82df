import Router from '@koa/router';
import { Middleware } from 'koa';
import { z } from 'zod';
import { AppContext, AppState } from './context';
import { HttpError, respond } from './envelope';
import { refuseGoneSession, refuseWhileRestricted, SessionRestriction } from './guards';
import { requireCsrf } from './session';
import { orPendingSignIn } from './pending-sign-in';
import { refuseRepeatedQuery, refuseUnknownQuery } from './query';
import { CallerKind, idempotentWrites } from './idempotency';
import type { IdempotencyRecords } from '../../stores/ports';
import { bodyIsRequired, parse } from './validate';
import type { Refusal } from './refusal';
export type { Refusal } from './refusal';
import { SignatureCheck, signedJsonBody } from './signed-body';

/**
 * Who may call an endpoint. The permission and scope names are those the slices
 * register; the composition root (src/compose.ts) refuses to start with an endpoint naming one
 * that no slice registered.
 */
export type Caller<Scope extends string = string, Permission extends string = string> =
  | { kind: 'anyone' }
  | { kind: 'member' }
  | { kind: 'admin'; permission?: Permission }
  | { kind: 'partner'; scope: Scope }
  /** A service that signs each request's raw body: no session, no CSRF token; the signature is checked before the body is parsed. */
  | { kind: 'signed'; check: SignatureCheck; limitKb: number; headers: readonly string[] };

/** Whose login an endpoint is: failed attempts are limited per username and client address, in a key space per realm. */
export type LoginRealm = 'member' | 'admin';

/** Which step of a sign-in: the password, or the second factor after it (counted against the same username). */
export type LoginStep = 'password' | 'second-factor';

/** What a handler answers: the envelope's data, and a message for people. */
export interface Reply<Data> {
  data: Data;
  message?: string;
}

/** A partner endpoint's answer, built from what the service holds, without the request. */
export interface LaneAnswer<Data = unknown> {
  answer(): Reply<Data> | Promise<Reply<Data>>;
  /**
   * Changes whenever the answer would, and throws when no answer can be given now: the partner
   * lane (partner-lane.ts) serialises the answer once per version. Without it, once per call.
   */
  version?(): unknown;
}

export interface Input<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
}

type AnyObject = z.ZodObject;

/**
 * An endpoint as data: the route, who may call it, the zod schemas of what it takes and answers,
 * and its handler. Mounting validates with those schemas and the OpenAPI document is generated
 * from them, so the contract and the code cannot drift apart.
 */
export interface EndpointSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Koa path under /api/v1, with :parameters. */
  path: string;
  caller: Caller;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /**
   * The JSON body, required; endpoints that take none declare `emptyBody`,
   * and a request to them may also come without a body.
   */
  body?: B;
  /** The envelope's data on success, or the whole body when `raw`. */
  response: R;
  /** Answered without the envelope, in this media type; the handler sets ctx.body itself. */
  raw?: 'application/json' | 'application/x-ndjson' | 'text/plain' | 'text/html';
  refusals?: Refusal[];
  /** Marks the login of members or administrators, whose failures are rate-limited. */
  login?: LoginRealm;
  /** The step of the login it is: the password unless said (a second factor's failures count with the password's). */
  loginStep?: LoginStep;
  /** A browser's navigation: success is a 302 to Location, and with `raw: 'text/html'` its refusals are pages. */
  redirects?: true;
  /**
   * Answered with an ETag, compressed as the client accepts: a request naming the ETag in
   * If-None-Match is answered 304 without a body, which the contract says.
   */
  revalidated?: true;
  /** Answers success under a new session id (login, registration, logout): the contract says its Set-Cookie. */
  movesSession?: true;
  /**
   * Checks the caller before the CSRF token: a logout repeated with the token its first call
   * replaced is told nobody is logged in (401), not that the token is stale (419).
   */
  callerBeforeCsrf?: boolean;
  /**
   * A member or administrator signed in with a one-time password may call it (changing the
   * password, signing out, what the console reads to show the change); every other endpoint of
   * theirs is refused with 403 password_change_required.
   */
  beforePasswordChange?: true;
  /**
   * Enrols a second factor: a member or administrator whom REQUIRE_SECOND_FACTOR covers and who has
   * none may call it (as `beforePasswordChange` ones); every other endpoint of theirs is refused
   * with 403 second_factor_enrolment_required.
   */
  enrolsSecondFactor?: true;
  /**
   * A sign-in awaiting its second factor may call it too (a logout, which abandons it): every
   * other endpoint of its side refuses such a session with 403 second_factor_required.
   */
  endsPendingSignIn?: true;
  handler(
    ctx: AppContext,
    input: Input<z.output<P>, z.output<Q>, z.output<B>>,
  ): Promise<Reply<z.input<R>> | void> | Reply<z.input<R>> | void;
  /**
   * The answer carries a secret shown once (an API key, a webhook secret, a one-time password):
   * never kept under an idempotency key, a retry is told it was issued (409 secret_already_issued).
   */
  secretInAnswer?: true;
  /** Set by `partnerEndpoint`: the partner lane answers with it ahead of koa. */
  lane?: LaneAnswer<z.input<R>>;
}

export type Endpoint = EndpointSpec<AnyObject, AnyObject, z.ZodType, z.ZodType>;

/** Declares an endpoint, typing its handler's input and answer from its schemas. */
export function endpoint<
  P extends AnyObject = z.ZodObject<Record<string, never>>,
  Q extends AnyObject = z.ZodObject<Record<string, never>>,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodType,
>(spec: EndpointSpec<P, Q, B, R>): Endpoint {
  return spec as unknown as Endpoint;
}

type PartnerSpec<R extends z.ZodType> = Pick<
  EndpointSpec<AnyObject, AnyObject, z.ZodUndefined, R>,
  'path' | 'summary' | 'description' | 'response'
> &
  LaneAnswer<z.input<R>> & { scope: string };

/**
 * Declares a GET of the open API whose answer needs nothing of the request: the partner lane
 * answers it ahead of koa, and the router answers what the lane leaves (HEAD, a query string).
 */
export function partnerEndpoint<R extends z.ZodType>({ scope, answer, version, ...spec }: PartnerSpec<R>): Endpoint {
  const lane: LaneAnswer<z.input<R>> = { answer, version };
  return endpoint({ ...spec, method: 'GET', caller: { kind: 'partner', scope }, handler: () => answer(), lane });
}

export interface Guards {
  member: Middleware<AppState>;
  /** After `member`, on a member's writes but the logout: the per-member limit. */
  memberWrite: Middleware<AppState>;
  admin(permission?: string): Middleware<AppState>;
  partner(scope: string): Middleware<AppState>;
  login(realm: LoginRealm, step: LoginStep): Middleware<AppState>;
}

function paramsOf(ctx: AppContext): Record<string, string> {
  return (ctx as AppContext & { params?: Record<string, string> }).params ?? {};
}

/** Validates the input with the endpoint's schemas, after the caller was admitted, then answers in the envelope. */
function answering(endpoint: Endpoint): Middleware<AppState> {
  return async (ctx) => {
    refuseUnknownQuery(endpoint, ctx.query);
    refuseRepeatedQuery(ctx.query);
    // koa answers null when the request has no body at all, and an empty body parses as {}: either
    // would pass for one.
    if (
      bodyIsRequired(endpoint.body) &&
      (ctx.request.is('application/json', '+json') === null || !ctx.request.rawBody)
    ) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        'this endpoint needs a JSON body: send one as application/json',
      );
    }
    const input = {
      params: endpoint.params ? parse(endpoint.params, paramsOf(ctx), 'invalid_path_parameter', '(path)') : {},
      query: endpoint.query ? parse(endpoint.query, ctx.query, 'validation_failed', '(query)') : {},
      body: endpoint.body ? parse(endpoint.body, ctx.request.body) : undefined,
    };
    const answer = await endpoint.handler(ctx, input);
    if (answer) respond(ctx, answer.data, answer.message);
  };
}

/** Every write but a signed caller's checks the session's CSRF token: a signed caller has no session. */
export const needsCsrf = ({ method, caller }: Pick<Endpoint, 'method' | 'caller'>): boolean =>
  method !== 'GET' && caller.kind !== 'signed';

/**
 * How the body is read: a signed caller's raw, its signature checked before it is parsed; an
 * endpoint that declares no body (GET, DELETE) does not read one: whatever is sent is ignored, as
 * its contract says nothing of it.
 */
function bodyReading(endpoint: Endpoint, body: Middleware<AppState>[]): Middleware<AppState>[] {
  if (endpoint.caller.kind === 'signed') return [signedJsonBody(endpoint.caller.limitKb, endpoint.caller.check)];
  return endpoint.body ? body : [];
}

/** A member's write the per-member limit counts: every one but the logout, which is answered whatever. */
export const isLimitedMemberWrite = (endpoint: Pick<Endpoint, 'method' | 'caller' | 'callerBeforeCsrf'>): boolean =>
  endpoint.caller.kind === 'member' && endpoint.method !== 'GET' && !endpoint.callerBeforeCsrf;

/**
 * The restrictions a member's or administrator's endpoint holds a session to: none on those that
 * lift them (`beforePasswordChange`: changing the password, signing out, what the console reads),
 * and no enrolment restriction on those that enrol a second factor.
 */
export function restrictionsOf(
  endpoint: Pick<Endpoint, 'caller' | 'beforePasswordChange' | 'enrolsSecondFactor'>,
): SessionRestriction[] {
  if ((endpoint.caller.kind !== 'member' && endpoint.caller.kind !== 'admin') || endpoint.beforePasswordChange)
    return [];
  return endpoint.enrolsSecondFactor
    ? ['password_change_required']
    : ['password_change_required', 'second_factor_enrolment_required'];
}

/** Who the caller is and may do: identity, permission or scope, a one-time password, the member's write limit. */
function callerChecksOf(endpoint: Endpoint, guards: Guards): Middleware<AppState>[] {
  const { caller } = endpoint;
  const checks: Middleware<AppState>[] = [];
  if (caller.kind === 'member' || caller.kind === 'admin') {
    const identity = caller.kind === 'member' ? guards.member : guards.admin(caller.permission);
    checks.push(endpoint.endsPendingSignIn ? orPendingSignIn(caller.kind, identity) : identity);
    for (const restriction of restrictionsOf(endpoint)) checks.push(refuseWhileRestricted(restriction, caller.kind));
  }
  if (isLimitedMemberWrite(endpoint)) checks.push(guards.memberWrite);
  if (caller.kind === 'partner') checks.push(guards.partner(caller.scope));
  return checks;
}

/**
 * Mounts endpoints with the checks their declaration implies, so a route cannot forget one:
 * every write checks the CSRF token first (a logout its caller first; a member's or administrator's
 * write whose session is gone is told it expired), then the identity and permission or scope, then
 * reads the body (`body`: its type and JSON), then a login's failure count (which needs the
 * username), then its idempotency key, then the input against the declared schemas. A caller who
 * may not call the endpoint is told so whatever it sent.
 */
export function mountEndpoints(
  router: Router<AppState>,
  endpoints: Endpoint[],
  guards: Guards,
  body: Middleware<AppState>[],
  records: IdempotencyRecords,
): void {
  for (const endpoint of endpoints) {
    const { method, path, caller } = endpoint;
    const callerChecks = callerChecksOf(endpoint, guards);
    const csrf = needsCsrf(endpoint) ? [requireCsrf] : [];
    const gone =
      method !== 'GET' && (caller.kind === 'member' || caller.kind === 'admin') ? [refuseGoneSession(caller.kind)] : [];
    const checks = endpoint.callerBeforeCsrf ? [...callerChecks, ...csrf] : [...gone, ...csrf, ...callerChecks];
    const login = endpoint.login ? [guards.login(endpoint.login, endpoint.loginStep ?? 'password')] : [];
    const reading = bodyReading(endpoint, body);
    // A signed caller's retries are told apart by what they report, not by a key it never sends.
    const idempotent = needsCsrf(endpoint)
      ? [idempotentWrites(records, caller.kind as CallerKind, endpoint.secretInAnswer === true)]
      : [];
    router.register(path, [method], [...checks, ...reading, ...login, ...idempotent, answering(endpoint)]);
  }
}
