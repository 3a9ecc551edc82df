import { OutgoingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { z } from 'zod';
import { Endpoint } from '../../../src/shared/http/endpoints';
import { openApiPath } from '../../../src/shared/http/openapi';
import { mistypedKey } from '../../support/credentials';
import { Body, hostileBody } from './hostile-body';
import {
  contentEncoding,
  contentType,
  encodeSegment,
  headerSafe,
  hostileQuery,
  hostileSegment,
  hostileText,
} from './hostile';
import { Session } from './raw-http';

/**
 * One hostile request as data (issue 7, reliability: fuzz): what it aims at, who sends it, and how
 * each header and the body are spoiled; put on the wire with the callers' sessions when it is sent.
 */

const API = '/api/v1';

export type CallerKind = 'none' | 'member' | 'admin' | 'partner';
type CookieChoice = 'caller' | 'none' | 'stranger' | 'caller+stranger' | 'stranger+caller' | { garbage: string };
type CsrfChoice =
  'current' | 'none' | 'stale' | 'stranger' | 'current twice' | 'current+stranger' | { garbage: string };
type ApiChoice =
  'caller' | 'none' | 'id only' | 'key only' | 'wrong key' | 'key twice' | 'two ids' | { garbage: string };

/** One hostile request, as data: what it aims at, who sends it, and how each header and the body are spoiled. */
export interface Hostile {
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

/** The callers a request may come from, established over the wire and renewed when a request logs them out. */
export interface Callers {
  member: Session;
  admin: Session;
  /** A visitor: a session with no one logged into it, as before registering or logging in. */
  none: Session;
  /** Another visitor, whose cookie and token are the wrong ones for every caller. */
  stranger: Session;
  partner: { apiid: string; apikey: string };
}

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

/**
 * Requests aimed at the mounted routes (four in five), at them with a wrong method, and at paths no
 * route has; `valid` holds path parameters' values that name something, `limitBytes` the body limit.
 */
export function hostileRequests(
  endpoints: Endpoint[],
  valid: Record<string, string[]>,
  limitBytes: number,
): fc.Arbitrary<Hostile> {
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
      body: hostileBody(keysOf(endpoint.body), limitBytes),
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
      body: hostileBody(keysOf(endpoint.body), limitBytes),
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
    body: hostileBody([], limitBytes),
    ...spoiling,
  });
  return fc.oneof(
    { weight: 16, arbitrary: toRoute },
    { weight: 2, arbitrary: wrongMethod },
    { weight: 2, arbitrary: unknownPath },
  );
}

/** The headers and body of a hostile request, with the callers' current sessions and credentials. */
export function wire(
  h: Hostile,
  callers: Callers,
): { headers: OutgoingHttpHeaders; body: Buffer | string | undefined } {
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

export function described(h: Hostile): string {
  const body =
    h.body.kind === 'text'
      ? JSON.stringify(h.body.text.slice(0, 300))
      : h.body.kind === 'none'
        ? 'no body'
        : `${h.body.kind} ${h.body.bytes.length} bytes`;
  return `${h.caller} → ${h.method} ${h.target.slice(0, 300)} cookie=${JSON.stringify(h.cookie)} csrf=${JSON.stringify(h.csrf)} api=${JSON.stringify(h.api)} content-type=${JSON.stringify(h.contentType)} content-encoding=${h.contentEncoding} body=${body}`;
}
