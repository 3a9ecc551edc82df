import { z } from 'zod';
import { createDocument, ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { IMPLEMENTATION_VERSION } from '../../version';
import { Caller, Endpoint, needsCsrf } from './endpoints';
import { OpenApiRefusal } from './open-api-refusals';
import { describedAll, refusalsOf } from './openapi-refusals';
import { rateLimitsOf } from './openapi-rate-limits';
import { cookieOf, etag, headersOf, requestId, revalidation } from './openapi-headers';
import { refusalSchemaOf } from './refusal-reasons';
import { envelopeOf } from './schemas';
import { bodyIsRequired } from './validate';

/** The version of the contract (docs/rules.md, "Addresses, answers and versions"), not of this implementation. */
export const CONTRACT_VERSION = '1.1.0';

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

/** A signed caller's headers: each required, what they mean in the operation's description. */
const signatureHeaders = (names: readonly string[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.string().min(1)])));

/** Operations are tagged with who may call them; each tag is described once, at the top. */
const TAGS: { name: Caller['kind']; description: string }[] = [
  { name: 'anyone', description: 'No identity needed: sessions, registration, logins, health' },
  { name: 'member', description: 'A developer member logged into this session (cookie PHPSESSID)' },
  { name: 'admin', description: 'An administrator logged into this session, with the permission named' },
  { name: 'partner', description: "A partner server's API id and API key, with the scope named approved" },
  { name: 'signed', description: 'A partner service that signs the raw body (the headers named); no session' },
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
    // The signature headers are the operation's own parameters: no scheme the contract names.
    case 'signed':
      return [];
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

function responsesOf(endpoint: Endpoint, partnerRefusals: readonly OpenApiRefusal[]): ZodOpenApiResponsesObject {
  const limited = rateLimitsOf(endpoint);
  const success = endpoint.raw
    ? {
        description: `${endpoint.summary}; without the envelope`,
        content: { [endpoint.raw]: { schema: endpoint.response } },
      }
    : { description: endpoint.summary, content: { 'application/json': { schema: envelopeOf(endpoint.response) } } };
  const headers200 = headersOf(200, limited, endpoint.method !== 'GET').extend(cookieOf(endpoint, 200));
  // A browser's route (single sign-on) redirects, and refuses with a page but for the kernel's checks.
  const responses: ZodOpenApiResponsesObject = endpoint.redirects
    ? { '302': { description: endpoint.summary, headers: headers200.extend({ Location: z.string() }) } }
    : { '200': { ...success, headers: endpoint.revalidated ? headers200.extend(revalidation) : headers200 } };
  if (endpoint.revalidated)
    responses['304'] = {
      description: 'Unchanged since the answer whose ETag If-None-Match names: keep that one',
      headers: z.object({ ...requestId, ...etag, ...cookieOf(endpoint, 304) }),
    };
  const html = endpoint.raw === 'text/html';
  for (const [status, { when, reasons }] of [...refusalsOf(endpoint, partnerRefusals)].sort(([a], [b]) => a - b)) {
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: describedAll([...new Set(when)]),
      content: {
        ...(html && { 'text/html': { schema: z.string() } }),
        'application/json': { schema: refusalSchemaOf(status, reasons) },
      },
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
      ...(needsCsrf(endpoint) && { header: writeHeaders }),
      ...(endpoint.caller.kind === 'signed' && { header: signatureHeaders(endpoint.caller.headers) }),
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
