import { randomBytes } from 'node:crypto';
import { IncomingHttpHeaders, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { z } from 'zod';
import { SCOPE_NAMES } from '../../src/credential/scopes';
import { ADDON_ACTIONS } from '../../src/addon/decider';
import { Endpoint } from '../../src/shared/http/endpoints';
import { openApiPath } from '../../src/shared/http/openapi';
import { activePartner, mistypedKey } from '../support/credentials';
import { ADMIN_PASSWORD, registerMember, startPlatform, TestPlatform } from '../support/platform';
import {
  Body,
  contentEncoding,
  contentType,
  encodeSegment,
  headerSafe,
  hostileBody,
  hostileQuery,
  hostileSegment,
  hostileText,
} from './support/hostile';

/**
 * Issue 7, reliability: at least 5,000 hostile requests over every mounted route, unknown paths
 * and wrong methods, from every kind of caller, one at a time against a real listening server.
 * Every answer is below 500 and in the envelope, no refused request adds to the log, and nothing
 * reaches Object.prototype. The test platform's contract checker also judges every answer.
 *
 * Deterministic: the seed is printed, and FUZZ_SEED=<seed> replays a run.
 */

const API = '/api/v1';
const MIN_REQUESTS = 5_000;
/** Times each mounted route is aimed at, on average; the run grows with the routes so that every one gets at least 50. */
const RUNS_PER_ROUTE = 100;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 72_024;
const BODY_LIMIT_KB = 64;

type CallerKind = 'none' | 'member' | 'admin' | 'partner';
type CookieChoice = 'caller' | 'none' | 'stranger' | 'caller+stranger' | 'stranger+caller' | { garbage: string };
type CsrfChoice =
  'current' | 'none' | 'stale' | 'stranger' | 'current twice' | 'current+stranger' | { garbage: string };
type ApiChoice =
  'caller' | 'none' | 'id only' | 'key only' | 'wrong key' | 'key twice' | 'two ids' | { garbage: string };

/** One hostile request, as data: what it aims at, who sends it, and how each header and the body are spoiled. */
interface Hostile {
  caller: CallerKind;
  method: string;
  /** Path and query as they go on the wire. */
  target: string;
  /** `POST /developer/register` when it aims at a mounted route with its own method. */
  route: string | null;
  cookie: CookieChoice;
  csrf: CsrfChoice;
  api: ApiChoice;
  contentType: string | string[] | undefined;
  contentEncoding: string | undefined;
  requestId: string | undefined;
  body: Body;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

interface Session {
  cookie: string;
  token: string;
  /** A token this session no longer takes: the one before its login, or one of the right form it never had. */
  stale: string;
}

/** The callers a request may come from, established over the wire and renewed when a request logs them out. */
interface Callers {
  member: Session;
  admin: Session;
  /** A visitor: a session with no one logged into it, as before registering or logging in. */
  none: Session;
  /** Another visitor, whose cookie and token are the wrong ones for every caller. */
  stranger: Session;
  partner: { apiid: string; apikey: string };
}

/** Errors answered before a request reaches its endpoint's validation and handler. */
const STOPPED_EARLY = new Set([
  'csrf_token_missing',
  'csrf_token_invalid',
  'not_logged_in',
  'admin_not_logged_in',
  'permission_denied',
  'api_credentials_missing',
  'api_credentials_invalid',
  'credential_revoked',
  'credential_expired',
  'scope_not_approved',
  'payload_too_large',
  'unsupported_media_type',
  'malformed_json',
  'forbidden_key',
  'malformed_body',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'too_many_login_failures',
]);

const OTHER_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'LOCK',
  'PURGE',
  'SEARCH',
];

let t: TestPlatform;
let port: number;

beforeAll(async () => {
  // The fuzz tries `admin` with wrong passwords; the brute-force limit must not lock the test's own administrator out.
  t = await startPlatform({ BODY_LIMIT_KB, LOGIN_MAX_FAILURES: 1000 });
  port = (t.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

/** One request over its own connection, headers exactly as given: an array value is sent as that many header lines. */
function send(method: string, target: string, headers: OutgoingHttpHeaders, body?: Buffer | string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function sessionCookieOf(reply: Reply): string {
  const cookie = (reply.headers['set-cookie'] ?? []).find(
    (c) => c.startsWith('PHPSESSID=') && !c.startsWith('PHPSESSID=;'),
  );
  if (!cookie) throw new Error(`no session cookie in ${reply.status} ${reply.text}`);
  return cookie.split(';')[0]!;
}

async function tokenOf(cookie: string): Promise<string> {
  const reply = await send('GET', `${API}/developer/session`, { cookie });
  return JSON.parse(reply.text).data.csrf_token as string;
}

async function anonymousSession(): Promise<Session> {
  const reply = await send('GET', `${API}/developer/session`, {});
  return {
    cookie: sessionCookieOf(reply),
    token: JSON.parse(reply.text).data.csrf_token as string,
    stale: randomBytes(32).toString('base64url'),
  };
}

/** A session logged in at `path` with these credentials, and its current CSRF token. */
async function loggedIn(
  path: '/developer/login' | '/admin/login',
  credentials: { username: string; password: string },
): Promise<Session> {
  const anonymous = await anonymousSession();
  const reply = await send(
    'POST',
    `${API}${path}`,
    { cookie: anonymous.cookie, 'x-csrf-token': anonymous.token, 'content-type': 'application/json' },
    JSON.stringify({ username: credentials.username, password: credentials.password }),
  );
  if (reply.status !== 200) throw new Error(`could not log in at ${path}: ${reply.status} ${reply.text}`);
  const cookie = sessionCookieOf(reply);
  return { cookie, token: await tokenOf(cookie), stale: anonymous.token };
}

const keysOf = (schema: z.ZodType | undefined): string[] =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];

/** The mounted route with its path parameters filled: valid-looking values or hostile ones. */
function filledPath(endpoint: Endpoint, valid: Record<string, string[]>): fc.Arbitrary<string> {
  const parts = endpoint.path.split('/').map((part) => {
    if (!part.startsWith(':')) return fc.constant(part);
    const good = valid[part.slice(1)] ?? ['1'];
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...good).map(encodeSegment) }, hostileSegment);
  });
  return fc.tuple(...parts).map((segments) => `${API}${segments.join('/')}`);
}

const callerOf = (endpoint: Endpoint): CallerKind =>
  endpoint.caller.kind === 'anyone' || endpoint.caller.kind === 'signed' ? 'none' : endpoint.caller.kind;

function hostileRequests(endpoints: Endpoint[], valid: Record<string, string[]>): fc.Arbitrary<Hostile> {
  const anyCaller = fc.constantFrom<CallerKind>('none', 'member', 'admin', 'partner');
  const garbage = hostileText.map((text) => ({ garbage: headerSafe(text) }));
  const spoiling = {
    cookie: fc.oneof(
      { weight: 8, arbitrary: fc.constant<CookieChoice>('caller') },
      fc.constantFrom<CookieChoice>('none', 'stranger', 'caller+stranger', 'stranger+caller'),
      fc.oneof(
        garbage,
        fc
          .constantFrom('PHPSESSID', 'PHPSESSID=', 'PHPSESSID=%', '=;=;', 'PHPSESSID=a; PHPSESSID=b')
          .map((g) => ({ garbage: g })),
      ),
    ),
    csrf: fc.oneof(
      { weight: 8, arbitrary: fc.constant<CsrfChoice>('current') },
      fc.constantFrom<CsrfChoice>('none', 'stale', 'stranger', 'current twice', 'current+stranger'),
      garbage,
    ),
    api: fc.oneof(
      { weight: 8, arbitrary: fc.constant<ApiChoice>('caller') },
      fc.constantFrom<ApiChoice>('none', 'id only', 'key only', 'wrong key', 'key twice', 'two ids'),
      garbage,
    ),
    contentType,
    contentEncoding,
    requestId: fc.option(hostileText.map(headerSafe), { freq: 4, nil: undefined }),
  };
  const toRoute = fc.constantFrom(...endpoints).chain((endpoint) =>
    fc.record({
      caller: fc.oneof({ weight: 3, arbitrary: fc.constant(callerOf(endpoint)) }, anyCaller),
      method:
        endpoint.method === 'GET'
          ? fc.oneof({ weight: 9, arbitrary: fc.constant('GET') }, fc.constant('HEAD'))
          : fc.constant(endpoint.method),
      target: fc
        .tuple(filledPath(endpoint, valid), hostileQuery(keysOf(endpoint.query)))
        .map(([path, query]) => path + query),
      route: fc.constant(`${endpoint.method} ${openApiPath(endpoint.path)}`),
      body: hostileBody(keysOf(endpoint.body), BODY_LIMIT_KB * 1024),
      ...spoiling,
    }),
  );
  const wrongMethod = fc.constantFrom(...endpoints).chain((endpoint) =>
    fc.record({
      caller: anyCaller,
      method: fc.constantFrom(
        ...OTHER_METHODS.filter((m) => m !== endpoint.method && !(m === 'HEAD' && endpoint.method === 'GET')),
      ),
      target: filledPath(endpoint, valid),
      route: fc.constant(null),
      body: hostileBody(keysOf(endpoint.body), BODY_LIMIT_KB * 1024),
      ...spoiling,
    }),
  );
  const unknownPath = fc.record({
    caller: anyCaller,
    method: fc.constantFrom(...OTHER_METHODS),
    target: fc
      .tuple(
        fc.oneof(
          fc.array(hostileSegment, { minLength: 1, maxLength: 4 }).map((segments) => `${API}/${segments.join('/')}`),
          fc.constantFrom(
            '/',
            '*',
            '/api',
            API,
            `${API}/`,
            '/api/v2/health',
            `${API}//health`,
            `${API}/health/..`,
            `${API}/./health`,
            `${API}/developer`,
            `${API}/open/`,
            '/favicon.ico',
            `${API}/credentials/1/scopes`,
            '/%',
            `${API}/%ZZ`,
          ),
          fc
            .constantFrom(...endpoints)
            .chain((e) => filledPath(e, valid))
            .map((path) => `${path}/extra`),
        ),
        hostileQuery([]),
      )
      .map(([path, query]) => path + query),
    route: fc.constant(null),
    body: hostileBody([], BODY_LIMIT_KB * 1024),
    ...spoiling,
  });
  return fc.oneof(
    { weight: 16, arbitrary: toRoute },
    { weight: 2, arbitrary: wrongMethod },
    { weight: 2, arbitrary: unknownPath },
  );
}

/** The headers and body of a hostile request, with the callers' current sessions and credentials. */
function wire(h: Hostile, callers: Callers): { headers: OutgoingHttpHeaders; body: Buffer | string | undefined } {
  const headers: OutgoingHttpHeaders = {};
  // A partner server keeps no session; a cookie it sends anyway is a visitor's.
  const session = h.caller === 'partner' ? undefined : callers[h.caller];
  const own = session ?? callers.none;
  const { stranger, partner } = callers;

  const cookies: Record<Exclude<CookieChoice, { garbage: string }>, string[]> = {
    caller: session ? [session.cookie] : [],
    none: [],
    stranger: [stranger.cookie],
    'caller+stranger': [own.cookie, stranger.cookie],
    'stranger+caller': [stranger.cookie, own.cookie],
  };
  const cookie = typeof h.cookie === 'object' ? [h.cookie.garbage] : cookies[h.cookie];
  if (cookie.length > 0) headers.cookie = cookie.length === 1 ? cookie[0] : cookie;

  const tokens: Record<Exclude<CsrfChoice, { garbage: string }>, string[]> = {
    current: [own.token],
    none: [],
    stale: [own.stale],
    stranger: [stranger.token],
    'current twice': [own.token, own.token],
    'current+stranger': [own.token, stranger.token],
  };
  const token = typeof h.csrf === 'object' ? [h.csrf.garbage] : tokens[h.csrf];
  if (token.length > 0) headers['x-csrf-token'] = token.length === 1 ? token[0] : token;

  const apis: Record<Exclude<ApiChoice, { garbage: string }>, [string[], string[]]> = {
    caller: h.caller === 'partner' ? [[partner.apiid], [partner.apikey]] : [[], []],
    none: [[], []],
    'id only': [[partner.apiid], []],
    'key only': [[], [partner.apikey]],
    'wrong key': [[partner.apiid], [mistypedKey(partner.apikey)]],
    'key twice': [[partner.apiid], [partner.apikey, partner.apikey]],
    'two ids': [[partner.apiid, partner.apiid], [partner.apikey]],
  };
  const [ids, keys] = typeof h.api === 'object' ? [[partner.apiid], [h.api.garbage]] : apis[h.api];
  if (ids.length > 0) headers['x-api-id'] = ids.length === 1 ? ids[0] : ids;
  if (keys.length > 0) headers['x-api-key'] = keys.length === 1 ? keys[0] : keys;

  if (h.contentType !== undefined) headers['content-type'] = h.contentType;
  if (h.contentEncoding !== undefined) headers['content-encoding'] = h.contentEncoding;
  if (h.requestId !== undefined) headers['x-request-id'] = h.requestId;
  if (h.body.kind === 'gzip') headers['content-encoding'] = 'gzip';
  const body = h.body.kind === 'none' ? undefined : h.body.kind === 'text' ? h.body.text : h.body.bytes;
  // Node sends a GET's body without a length unless told: the server would read it as a second request.
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  return { headers, body };
}

function described(h: Hostile): string {
  const body =
    h.body.kind === 'text'
      ? JSON.stringify(h.body.text.slice(0, 300))
      : h.body.kind === 'none'
        ? 'no body'
        : `${h.body.kind} ${h.body.bytes.length} bytes`;
  return `${h.caller} → ${h.method} ${h.target.slice(0, 300)} cookie=${JSON.stringify(h.cookie)} csrf=${JSON.stringify(h.csrf)} api=${JSON.stringify(h.api)} content-type=${JSON.stringify(h.contentType)} content-encoding=${h.contentEncoding} body=${body}`;
}

/** What is wrong with this answer, if anything. */
function problemWith(h: Hostile, reply: Reply, raw: boolean, page: boolean, logGrew: boolean): string | null {
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (reply.status >= 400 && logGrew) return `refused with ${reply.status} but the log grew`;
  if (h.method === 'HEAD') return null;
  // The root sends browsers to the web console (src/http/console.ts); it is no API answer.
  if (h.method === 'GET' && (h.target === '/' || h.target.startsWith('/?'))) {
    return reply.status === 302 && reply.headers.location === '/ui/'
      ? null
      : `the root answered ${reply.status}, not a redirect to /ui/`;
  }
  if (raw && reply.status < 300) return null;
  // A browser's route (single sign-on) refuses with a page a person reads; the contract checker judges its type.
  if (page && String(reply.headers['content-type']).startsWith('text/html')) return null;
  if (!String(reply.headers['content-type']).startsWith('application/json'))
    return `answered ${reply.headers['content-type']}, not JSON`;
  let body: { code?: unknown; message?: unknown; data?: unknown };
  try {
    body = JSON.parse(reply.text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'the body is not an object';
  if (typeof body.message !== 'string' || body.message.length === 0) return 'message is not a non-empty string';
  if (!('data' in body)) return 'no data';
  if (reply.status === 200) return body.code === 0 ? null : `code ${String(body.code)} on a 200`;
  if (reply.status < 400) return `answered ${reply.status}`;
  if (body.code !== reply.status) return `code ${String(body.code)} is not the status`;
  const data = body.data as { error?: unknown } | null;
  if (typeof data !== 'object' || data === null || typeof data.error !== 'string' || !/^[a-z_]+$/.test(data.error))
    return 'data.error is not a stable reason';
  return null;
}

const prototypeKeys = () =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) =>
    Reflect.ownKeys(p).map(String).sort().join(','),
  );

it(`answers ${MIN_REQUESTS}+ hostile requests over every route below 500, in the envelope, without a refused write`, async () => {
  process.stdout.write(`fuzz seed ${SEED}: replay with FUZZ_SEED=${SEED}\n`);
  const prototypesBefore = prototypeKeys();
  const { events } = t.platform.stores;

  const partner = await activePartner(t, SCOPE_NAMES);
  const victim = await registerMember(t.client());
  const victimSession = await loggedIn('/developer/login', victim);
  // A pending application, so that the administrator's approvals and rejections can succeed.
  const applied = await send(
    'POST',
    `${API}/developer/credential`,
    { cookie: victimSession.cookie, 'x-csrf-token': victimSession.token, 'content-type': 'application/json' },
    '{}',
  );
  expect(applied.status).toBe(200);
  const logInAll = async (): Promise<Callers> => ({
    member: await loggedIn('/developer/login', victim),
    admin: await loggedIn('/admin/login', { username: 'admin', password: ADMIN_PASSWORD }),
    none: await anonymousSession(),
    stranger: await anonymousSession(),
    partner: { apiid: partner.apiid, apikey: partner.apikey },
  });
  let callers = await logInAll();
  const addons = JSON.parse((await send('GET', `${API}/addons`, { cookie: callers.admin.cookie })).text).data.list as {
    key: string;
  }[];
  // The partner's own member id is left out, so that an approved revocation cannot end the partner's part of the run.
  const valid: Record<string, string[]> = {
    member_id: [String(victim.id), '999999'],
    scope: [...SCOPE_NAMES],
    key: [...addons.map((a) => a.key), 'no_such_addon'],
    action: [...ADDON_ACTIONS],
  };
  const endpoints = t.platform.endpoints;
  const raw = new Set(endpoints.filter((e) => e.raw).map((e) => `${e.method} ${openApiPath(e.path)}`));
  const pages = new Set(
    endpoints.filter((e) => e.raw === 'text/html').map((e) => `${e.method} ${openApiPath(e.path)}`),
  );
  // Four requests in five aim at a mounted route (the weights in hostileRequests).
  const runs = Math.max(MIN_REQUESTS + 200, Math.ceil((endpoints.length * RUNS_PER_ROUTE) / 0.8));

  let sent = 0;
  const aimed = new Map<string, number>();
  const reached = new Map<string, number>();
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(hostileRequests(endpoints, valid), async (h) => {
      const { headers, body } = wire(h, callers);
      const before = await events.headPosition();
      const answersBefore = t.answered.length;
      const logBefore = t.logLines.length;
      const reply = await send(h.method, h.target, headers, body);
      sent += 1;
      const logGrew = (await events.headPosition()) !== before;
      const operation = t.answered.slice(answersBefore).at(-1)?.operation ?? null;
      const problem = problemWith(
        h,
        reply,
        operation !== null && raw.has(operation),
        operation !== null && pages.has(operation),
        logGrew,
      );
      if (problem) {
        const errors = t.logLines
          .slice(logBefore)
          .filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
        throw new Error(
          `${problem}\nrequest: ${described(h)}\nanswer: ${reply.status} ${reply.text.slice(0, 500)}\nlogged: ${errors.join('\n')}`,
        );
      }

      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      if (h.route) {
        aimed.set(h.route, (aimed.get(h.route) ?? 0) + 1);
        const refusedInJson =
          reply.status >= 400 &&
          h.method !== 'HEAD' &&
          String(reply.headers['content-type']).startsWith('application/json');
        const error = refusedInJson ? (JSON.parse(reply.text).data.error as string) : null;
        if (reply.status < 400 ? h.method !== 'HEAD' : !STOPPED_EARLY.has(error!))
          reached.set(h.route, (reached.get(h.route) ?? 0) + 1);
      }
      // An administrator gave the member a one-time password: it is the member's password from now on,
      // and every session of the member ended.
      if (reply.status === 200 && h.route === 'POST /members/{member_id}/password-reset') {
        victim.password = (JSON.parse(reply.text) as { data: { password: string } }).data.password;
        callers = await logInAll();
      }
      // A request that logged in, out or registered changed a session: the callers log in again.
      if (reply.status === 200 && /\/(login|logout|register)(\?|$)/.test(h.target)) callers = await logInAll();
    }),
    // No shrinking: the service's state moves on with every request, so a smaller case would not
    // replay the same conditions; the failing request is printed whole, and the seed replays the run.
    { seed: SEED, numRuns: runs, endOnFailure: true },
  );

  const routes = endpoints.map((e) => `${e.method} ${openApiPath(e.path)}`);
  const fewest = [...routes].sort((a, b) => (reached.get(a) ?? 0) - (reached.get(b) ?? 0))[0]!;
  process.stdout.write(
    `fuzz: ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ` +
      `fewest past the guards: ${fewest} (${reached.get(fewest) ?? 0} of ${aimed.get(fewest) ?? 0})\n`,
  );
  expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
  // Every mounted route was aimed at, and reached its validation or handler past the guards.
  expect(routes.filter((r) => (aimed.get(r) ?? 0) < 50)).toEqual([]);
  expect(routes.filter((r) => !reached.has(r))).toEqual([]);
  expect(t.contractProblems).toEqual([]);
  expect(prototypeKeys()).toEqual(prototypesBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}, 300_000);
