import { z } from 'zod';
import { createDocument, ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { IMPLEMENTATION_VERSION } from '../../version';
import { Caller, Endpoint, isLimitedMemberWrite, Refusal } from './endpoints';
import { TOO_MANY_CHANGES } from './member-writes';
import { OpenApiRefusal, RATE_LIMITED } from './open-api-refusals';
import { refusalSchemaOf } from './refusal-reasons';
import { envelopeOf } from './schemas';
import { bodyIsRequired } from './validate';

/** The version of the contract (docs/rules.md, "Addresses, answers and versions"), not of this implementation. */
export const CONTRACT_VERSION = '1.1.0';

type ErrorStatus = Refusal['status'] | 400 | 403 | 413 | 415 | 419 | 500;

const csrfHeader = z.object({
  'X-CSRF-Token': z
    .string()
    .meta({ description: "The session's current token, from GET /developer/session or /admin/session" }),
});

/** One parameter component, referenced by every write (docs/rules.md, "Idempotency keys"). */
const writeHeaders = csrfHeader.extend({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .meta({
      description:
        "Makes the write safe to retry (Stripe's semantics): the first answer under this caller's key is kept 24 hours and answered again with Idempotent-Replayed: true; 1 to 255 visible ASCII characters, a UUID say",
      param: { id: 'IdempotencyKey' },
    }),
});

const idempotentReplayed = z.literal('true').optional().meta({
  description: 'The answer kept for the first request under this Idempotency-Key, given again: nothing ran this time',
});

const retryAfter = z.int().min(1).meta({ description: 'Seconds to wait before trying again' });

const requestId = {
  'X-Request-Id': z.string().meta({
    description: "This answer's id, as the service logged it; a client's own X-Request-Id is logged beside it",
  }),
};

/** The RateLimit header fields, told of what is counted: a partner's calls, or a member's writes. */
const rateLimitFieldsOf = (counted: string, perWindow: string) => ({
  'RateLimit-Limit': z
    .int()
    .min(1)
    .meta({ description: `${perWindow} per window` }),
  'RateLimit-Remaining': z
    .int()
    .min(0)
    .meta({ description: `${counted} left in the current window` }),
  'RateLimit-Reset': z.int().min(1).meta({ description: 'Seconds until the current window ends' }),
  'RateLimit-Policy': z.string().meta({ description: 'The limit and its window in seconds, e.g. 6000;w=60' }),
});
const partnerCalls = rateLimitFieldsOf('Calls', 'Calls this API id may make');
const memberWrites = rateLimitFieldsOf('Writes', 'Writes this member may make');

const sessionCookie = z.string().meta({
  id: 'SessionCookie',
  description:
    'PHPSESSID=<session id>; HttpOnly; SameSite=Lax (Secure behind HTTPS): once per answer, when the session is created, renewed within its idle limit, or given a new id',
});

/**
 * Set-Cookie wherever a session is read: optional, as the session renews its cookie when it is
 * used; required on the success of a login, registration or logout, which always gives a new id.
 */
function cookieOf(endpoint: Endpoint, status: 200 | ErrorStatus): z.ZodRawShape {
  if (endpoint.caller.kind === 'partner') return {};
  return { 'Set-Cookie': status === 200 && endpoint.movesSession ? sessionCookie : sessionCookie.optional() };
}

/** Operations are tagged with who may call them; each tag is described once, at the top. */
const TAGS: { name: Caller['kind']; description: string }[] = [
  { name: 'anyone', description: 'No identity needed: sessions, registration, logins, health' },
  { name: 'member', description: 'A developer member logged into this session (cookie PHPSESSID)' },
  { name: 'admin', description: 'An administrator logged into this session, with the permission named' },
  { name: 'partner', description: "A partner server's API id and API key, with the scope named approved" },
];

/** The administrator session is the contract's default (`security` at the top); the other callers say their own. */
const DEFAULT_SECURITY = [{ session: [] }];

function securityOf({ caller, method }: Endpoint): Record<string, string[]>[] | undefined {
  switch (caller.kind) {
    case 'admin':
      return undefined;
    case 'member':
      return [{ session: [] }];
    // Both headers together: one requirement object.
    case 'partner':
      return [{ apiId: [], apiKey: [] }];
    // A write (register, login) needs the session cookie that issued its X-CSRF-Token; a read needs nothing.
    case 'anyone':
      return method === 'GET' ? [] : [{ session: [] }];
  }
}

/** Fields may be added to an answer, never renamed (docs/rules.md): a client must not refuse one it does not know. */
function answersMayGrow({
  jsonSchema,
  io,
}: {
  jsonSchema: { additionalProperties?: unknown };
  io: 'input' | 'output';
}): void {
  if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
}

/**
 * Koa's `/credentials/:member_id` is OpenAPI's `/credentials/{member_id}`; the router keeps the
 * root route `/` as the bare prefix, which is OpenAPI's `/` again.
 */
export function openApiPath(path: string): string {
  return (path || '/').replace(/:([a-z_]+)/g, '{$1}');
}

function operationId({ method, path }: Endpoint): string {
  const words = path.split(/[/:{}\-.]+/).filter(Boolean);
  return [method.toLowerCase(), ...words].join('_');
}

/**
 * The refusals every endpoint of this kind can answer, from its declaration, then its own; a
 * partner endpoint's gate refuses what the slices declared (`partnerRefusals`).
 */
function refusalsOf(endpoint: Endpoint, partnerRefusals: readonly OpenApiRefusal[]): Map<ErrorStatus, string[]> {
  const { caller, method } = endpoint;
  const refusals = new Map<ErrorStatus, string[]>();
  const add = (status: ErrorStatus, when: string) => refusals.set(status, [...(refusals.get(status) ?? []), when]);

  if (method !== 'GET') add(419, "X-CSRF-Token is missing or is not this session's current token");
  if (caller.kind === 'member') add(401, 'no member is logged into this session');
  if (caller.kind === 'admin')
    add(401, 'no administrator is logged into this session, or the one logged in was disabled (admin_disabled)');
  if (caller.kind === 'admin' && caller.permission)
    add(
      403,
      `the administrator lacks the permission ${caller.permission}, or its role group is disabled (role_group_disabled)`,
    );
  if (caller.kind === 'partner') {
    for (const refusal of [...partnerRefusals, RATE_LIMITED]) add(refusal.status, refusal.when(caller.scope));
    add(503, 'the credentials, or what the endpoint lists, cannot be read right now; retry after Retry-After');
  }
  if (caller.kind === 'admin') add(503, 'the read models are at an older projection version: run `platform upgrade`');
  if (caller.kind !== 'anyone') add(503, 'the read models are catching up; retry after Retry-After');
  if (endpoint.params) add(422, 'a path parameter breaks its rule');
  if (endpoint.query) add(422, 'a query parameter breaks its rule; data.issues names each');
  add(422, 'the query names a parameter this endpoint does not take (unknown_query_parameter)');
  if (endpoint.body) {
    add(422, 'the body is malformed JSON or breaks a rule; data.issues names each');
    add(413, 'the body is too large');
    add(
      415,
      bodyIsRequired(endpoint.body)
        ? 'the body is missing or not application/json'
        : 'the body is not application/json',
    );
  }
  if (isLimitedMemberWrite(endpoint)) add(429, TOO_MANY_CHANGES);
  if (endpoint.login)
    add(
      429,
      'too many failed logins for this username, or for any username, from this client address; retry after Retry-After',
    );
  for (const refusal of endpoint.refusals ?? []) add(refusal.status, refusal.when);
  if (caller.kind === 'member') {
    // Every member endpoint documents 403 and 422 whatever it answers today: a client written against
    // the contract handles them before any endpoint uses them.
    add(403, 'reserved for a member the developer center refuses; every logged-in member is admitted today');
    if (!refusals.has(422)) {
      add(
        422,
        "reserved for a request the member's state does not allow; this endpoint takes no input and refuses none today",
      );
    }
  }
  if (method !== 'GET') {
    add(
      409,
      "stream_deleted: an operator deleted this resource's history from the event store; it cannot change any more",
    );
    add(400, 'idempotency_key_invalid: Idempotency-Key is not 1 to 255 visible ASCII characters');
    add(
      409,
      'idempotency_key_in_use: the first request under this Idempotency-Key is still running; retry after Retry-After',
    );
    add(
      422,
      'idempotency_key_reused: this Idempotency-Key came with another request (another endpoint, path, query or body)',
    );
    if (endpoint.secretInAnswer)
      add(
        409,
        'secret_already_issued: a request under this Idempotency-Key succeeded and issued the secret, which is shown once and never kept',
      );
  }
  add(503, 'store_unavailable: the event store or the document store cannot be reached; retry after Retry-After');
  add(500, 'server error: never to be taken as success');
  return refusals;
}

/**
 * The reasons for one status: the reason alone, or a Markdown list of them, one per line. Joined
 * into one sentence, reasons that carry their own "; retry after …" read as one garbled clause.
 */
function describedAll(reasons: string[]): string {
  return reasons.length === 1 ? reasons[0]! : reasons.map((reason) => `- ${reason}`).join('\n');
}

/**
 * The header fields of an answer: its request id always; Retry-After on a 429, and on a 503 when
 * waiting can help (not on `upgrade_required`); and, for the open API and a member's writes, where
 * the API id or the member stands on every answer that follows the count (always on 200 and 429; on
 * another refusal when it came after the count).
 */
function headersOf(status: 200 | ErrorStatus, limit: typeof partnerCalls | null, write: boolean): z.ZodObject {
  const counted = limit && status !== 401 && status !== 500 ? limit : {};
  const replayed = write && status < 500 ? { 'Idempotent-Replayed': idempotentReplayed } : {};
  switch (status) {
    case 200:
      return z.object({ ...requestId, ...counted, ...replayed });
    case 409:
      return z.object({
        ...requestId,
        ...z.object({ 'Retry-After': retryAfter, ...counted, ...replayed }).partial().shape,
      });
    case 429:
      return z.object({ ...requestId, 'Retry-After': retryAfter, ...counted });
    case 503:
      return z.object({ ...requestId, ...z.object({ 'Retry-After': retryAfter, ...counted }).partial().shape });
    default:
      return z.object({ ...requestId, ...z.object({ ...counted, ...replayed }).partial().shape });
  }
}

function responsesOf(endpoint: Endpoint, partnerRefusals: readonly OpenApiRefusal[]): ZodOpenApiResponsesObject {
  const limited =
    endpoint.caller.kind === 'partner' ? partnerCalls : isLimitedMemberWrite(endpoint) ? memberWrites : null;
  const success = endpoint.raw
    ? {
        description: `${endpoint.summary}; without the envelope`,
        content: { [endpoint.raw]: { schema: endpoint.response } },
      }
    : { description: endpoint.summary, content: { 'application/json': { schema: envelopeOf(endpoint.response) } } };
  const headers200 = headersOf(200, limited, endpoint.method !== 'GET').extend(cookieOf(endpoint, 200));
  // A browser's navigation (single sign-on) succeeds with a redirect, and is refused with a page a person reads.
  const responses: ZodOpenApiResponsesObject = endpoint.redirects
    ? { '302': { description: endpoint.summary, headers: headers200.extend({ Location: z.string() }) } }
    : { '200': { ...success, headers: headers200 } };
  const html = endpoint.raw === 'text/html';
  for (const [status, reasons] of [...refusalsOf(endpoint, partnerRefusals)].sort(([a], [b]) => a - b)) {
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: describedAll([...new Set(reasons)]),
      content: html
        ? { 'text/html': { schema: z.string() } }
        : { 'application/json': { schema: refusalSchemaOf(status) } },
      headers: headersOf(status, limited, endpoint.method !== 'GET').extend(cookieOf(endpoint, status)),
    };
  }
  return responses;
}

function operationOf(endpoint: Endpoint, partnerRefusals: readonly OpenApiRefusal[]): ZodOpenApiOperationObject {
  const { caller } = endpoint;
  const permission = caller.kind === 'admin' && caller.permission ? ` Permission: ${caller.permission}.` : '';
  const scope = caller.kind === 'partner' ? ` Scope: ${caller.scope}.` : '';
  return {
    operationId: operationId(endpoint),
    summary: endpoint.summary,
    description: `${endpoint.description ?? endpoint.summary}. Caller: ${caller.kind}.${permission}${scope}`,
    tags: [caller.kind],
    ...(securityOf(endpoint) && { security: securityOf(endpoint) }),
    requestParams: {
      ...(endpoint.params && { path: endpoint.params }),
      ...(endpoint.query && { query: endpoint.query }),
      ...(endpoint.method !== 'GET' && { header: writeHeaders }),
    },
    ...(endpoint.body && {
      requestBody: {
        required: bodyIsRequired(endpoint.body),
        content: { 'application/json': { schema: endpoint.body } },
      },
    }),
    responses: responsesOf(endpoint, partnerRefusals),
  };
}

/**
 * The OpenAPI 3.1 contract, generated from the endpoints' own declarations: the schemas the
 * routes validate and answer with, the caller each admits, and the refusals each can answer
 * (a partner endpoint's gate, what the slices declared: `partnerRefusals`).
 * `closedAnswers` keeps answers' objects closed, as the tests judge the service's own answers:
 * every field it sends must be documented, though a client must accept more.
 */
export function contractOf(
  endpoints: Endpoint[],
  partnerRefusals: readonly OpenApiRefusal[],
  { closedAnswers = false } = {},
) {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const endpoint of endpoints) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operationOf(endpoint, partnerRefusals) };
  }
  return describeNdjsonByLine(
    createDocument(
      {
        openapi: '3.1.0',
        info: {
          title: 'Platform API',
          version: CONTRACT_VERSION,
          'x-implementation-version': IMPLEMENTATION_VERSION,
          description:
            'Developer membership, API credentials with scopes reviewed by administrators, the open API for partner servers, and the application center.',
          contact: { name: 'Platform API maintainers' },
        },
        // Absolute, as tools that proxy or call the service (Prism, generated clients) need.
        servers: [
          {
            url: '{base_url}/api/v1',
            variables: {
              base_url: {
                default: 'http://localhost:3000',
                description: 'Scheme, host and port the service is reached at',
              },
            },
          },
        ],
        tags: TAGS,
        security: DEFAULT_SECURITY,
        paths,
        components: {
          securitySchemes: {
            session: {
              type: 'apiKey',
              in: 'cookie',
              name: 'PHPSESSID',
              description:
                'The session cookie, set by GET /developer/session or /admin/session with the CSRF token; an administrator (the default), a member, or before a login or registration no one',
            },
            apiId: { type: 'apiKey', in: 'header', name: 'X-API-ID', description: 'The API id, with X-API-Key' },
            apiKey: {
              type: 'apiKey',
              in: 'header',
              name: 'X-API-Key',
              description: 'The API key, with X-API-ID; never in a URL',
            },
          },
        },
      },
      closedAnswers ? {} : { override: answersMayGrow },
    ),
  );
}

type Document = ReturnType<typeof createDocument>;
interface MediaType {
  schema?: unknown;
  'x-line-schema'?: unknown;
}

/**
 * An NDJSON body as a whole is no JSON value, so tools that validate it against `schema` (Prism)
 * refuse every answer. The body is described as a string, and the schema of each of its lines
 * moves beside it to `x-line-schema` (what OpenAPI 3.2 names `itemSchema`).
 */
function describeNdjsonByLine(document: Document): Document {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(
      item as Record<string, { responses?: Record<string, { content?: Record<string, MediaType> }> }>,
    )) {
      const media = operation.responses?.['200']?.content?.['application/x-ndjson'];
      if (!media) continue;
      media['x-line-schema'] = media.schema;
      media.schema = {
        type: 'string',
        description: 'Newline-delimited JSON: one object per line, each as x-line-schema describes',
      };
    }
  }
  return document;
}
