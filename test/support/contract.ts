import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OutgoingHttpHeaders, RequestListener } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Middleware } from 'koa';
import type { PartnerLane } from '../../src/shared/http/partner-lane';
import { API_PREFIX } from '../../src/shared/http/app';
import { isConsolePath } from '../../src/shared/http/console';
import { contractOf, openApiPath } from '../../src/shared/http/openapi';
import { Endpoint } from '../../src/shared/http/endpoints';
import { REGISTRY } from '../../src/compose';

type Document = ReturnType<typeof contractOf>;

interface DocumentedResponse {
  content?: Record<string, unknown>;
  headers?: Record<string, { required?: boolean; schema?: { type?: string } }>;
}

/** An answer's header fields, names in lower case. */
type Headers = Record<string, unknown>;

/** Header fields the contract must declare wherever the service sends them. */
const WATCHED = [
  'set-cookie',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'ratelimit',
  'x-request-id',
];

/** One answer of the service as the contract judges it. */
export interface Checked {
  /** `GET /credentials/{member_id}/history`, or null when no route matched. */
  operation: string | null;
  status: number;
}

/** The names of the cookies an answer sets more than once: a client keeps one of them, no telling which. */
function cookiesSetTwice(headers: Headers): string[] {
  const names = [headers['set-cookie'] ?? []].flat().map((cookie) => String(cookie).replace(/=.*/s, ''));
  return [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
}

/** A body the handler encoded itself (GET /openapi), as the client reads it once decoded. */
function bytesAsSent(body: unknown, encoding: string, json: boolean): unknown {
  if (!Buffer.isBuffer(body)) return body;
  const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  return json ? JSON.parse(decoded.toString('utf8')) : decoded.toString('utf8');
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Judges real answers against the served contract's response schemas with a JSON Schema 2020-12
 * validator: the status must be documented for the operation, and the body must match its schema.
 */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private built: Document | undefined;

  constructor(private readonly endpoints: Endpoint[]) {
    addFormats(this.ajv);
  }

  /**
   * Built at the first answer judged, not with the platform, and added to the validator as
   * `contract`, which every reference of check() points into: the build takes one to three seconds
   * on a busy machine, which every start of a test platform paid, also where no request is sent (a
   * start that must be refused, a checkpointer's restart).
   */
  get document(): Document {
    if (!this.built) {
      // Closed: a field the service sends and the contract does not name fails the test.
      this.built = contractOf(this.endpoints, REGISTRY.openApiRefusals, { closedAnswers: true });
      this.ajv.addSchema(this.built as object, 'contract');
    }
    return this.built;
  }

  /**
   * Problems with this answer; none when the contract documents it exactly. With the answer's
   * header fields (names in lower case), those the contract declares are judged too.
   */
  problems(
    method: string,
    path: string | null,
    status: number,
    contentType: string,
    body: unknown,
    headers?: Headers,
  ): string[] {
    const where = `${method} ${path ?? '(no route)'} → ${status}`;
    if (path === null) return this.check('#/components/schemas/Refusal', body, where);
    // HEAD is GET without the body going out (RFC 9110 §9.3.2): the contract documents it as GET.
    const documented = method === 'HEAD' ? 'get' : method.toLowerCase();
    const operation = (
      this.document.paths as Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>
    )[path]?.[documented];
    if (!operation) return [`${where}: the contract has no such operation`];
    const response = operation.responses[String(status)];
    if (!response) return [`${where}: status ${status} is not documented for this operation`];
    const unlisted =
      status >= 400 &&
      !this.listsReasons((response.content?.['application/json'] as { schema?: unknown } | undefined)?.schema);
    if (unlisted) return [`${where}: the contract lists no reasons (data.error) for this status`];
    const headerProblems = headers
      ? this.headerProblems(
          response,
          headers,
          `#/${pointer('paths', path, documented, 'responses', String(status), 'headers')}`,
          where,
        )
      : [];
    return [...headerProblems, ...this.bodyProblems(response, path, documented, status, contentType, body, where)];
  }

  /** Every declared header field that is required is there, every one there fits its schema, and none of WATCHED is undeclared. */
  private headerProblems(response: DocumentedResponse, headers: Headers, at: string, where: string): string[] {
    const declared = response.headers ?? {};
    const names = Object.keys(declared);
    const problems = WATCHED.filter(
      (name) => headers[name] !== undefined && !names.some((n) => n.toLowerCase() === name),
    ).map((name) => `${where}: header ${name} is sent but not declared`);
    problems.push(...cookiesSetTwice(headers).map((name) => `${where}: Set-Cookie sets ${name} more than once`));
    for (const [name, header] of Object.entries(declared)) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${where}: header ${name} is declared required but missing`);
        continue;
      }
      const typed = header.schema?.type === 'integer' && /^-?\d+$/.test(String(value)) ? Number(value) : String(value);
      problems.push(...this.check(`${at}/${pointer(name, 'schema')}`, typed, `${where} header ${name}`));
    }
    return problems;
  }

  private bodyProblems(
    response: DocumentedResponse,
    path: string,
    documented: string,
    status: number,
    contentType: string,
    body: unknown,
    where: string,
  ): string[] {
    // An answer may be documented in several media types (a browser's page, or the envelope): the one it has.
    const documentedTypes = Object.keys(response.content ?? {});
    if (documentedTypes.length === 0) return [];
    const mediaType = documentedTypes.find((type) => contentType.startsWith(type));
    if (!mediaType) return [`${where}: answered ${contentType}, the contract says ${documentedTypes.join(' or ')}`];
    const schemaOf = (keyword: string) =>
      `#/${pointer('paths', path, documented, 'responses', String(status), 'content', mediaType, keyword)}`;
    if (mediaType === 'application/x-ndjson') {
      // The body is a string of lines; each line is judged by the schema beside it.
      const lines = String(body).split('\n').filter(Boolean);
      return [
        ...this.check(schemaOf('schema'), String(body), where),
        ...lines.flatMap((line, i) =>
          this.check(schemaOf('x-line-schema'), JSON.parse(line), `${where} line ${i + 1}`),
        ),
      ];
    }
    return this.check(schemaOf('schema'), body, where);
  }

  /**
   * Whether a refusal's schema lists its reasons as an enum of data.error: then the body's check
   * refuses a reason the operation does not declare for this status, in every test.
   */
  private listsReasons(schema: unknown): boolean {
    const s = (schema ?? {}) as { $ref?: string; allOf?: unknown[]; properties?: { data?: unknown } };
    if (s.$ref) {
      const name = s.$ref.replace('#/components/schemas/', '');
      return this.listsReasons((this.document.components?.schemas as Record<string, unknown> | undefined)?.[name]);
    }
    if (s.allOf) return s.allOf.some((part) => this.listsReasons(part));
    const data = (s.properties?.data ?? {}) as { properties?: { error?: { enum?: unknown[] } } };
    return Array.isArray(data.properties?.error?.enum);
  }

  private check(ref: string, body: unknown, where: string): string[] {
    let validate = this.validators.get(ref);
    if (!validate) {
      // A refusal of no route is judged before anything else has asked for the document.
      void this.document;
      validate = this.ajv.compile({ $ref: `contract${ref}` });
      this.validators.set(ref, validate);
    }
    if (validate(body)) return [];
    // JSON.stringify gives undefined for a body that is not there.
    return [`${where}: ${this.ajv.errorsText(validate.errors)} in ${String(JSON.stringify(body)).slice(0, 500)}`];
  }

  /**
   * A middleware, placed first, that judges every answer of the service as it leaves; what it
   * finds is recorded, never changed, so the test that caused it can still assert its own way.
   */
  watch(found: string[], seen: Checked[]): Middleware {
    return async (ctx, next) => {
      await next();
      // The web console's files and redirect are not part of the API's contract.
      if (isConsolePath(ctx.path) && !ctx.response.is('application/json')) return;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      const path = route ? openApiPath(route.slice(API_PREFIX.length)) : null;
      const body = bytesAsSent(ctx.body, ctx.response.get('Content-Encoding'), ctx.response.is('json') !== false);
      seen.push({ operation: path && `${ctx.method} ${path}`, status: ctx.status });
      // A streamed body is judged by the test that reads it, with problems(); no bytes pass here.
      if (body !== null && typeof body === 'object' && 'pipe' in body) return;
      found.push(
        ...this.problems(
          ctx.method,
          path,
          ctx.status,
          ctx.response.type || 'application/json',
          body,
          ctx.response.headers,
        ),
      );
    };
  }

  /**
   * The same judgement for the answers the partner lane gives ahead of koa, taken from what it
   * writes: the status and header fields of writeHead, the bytes of end.
   */
  watchLane(lane: PartnerLane, found: string[], seen: Checked[]): (next: RequestListener) => RequestListener {
    return (next) => (req, res) => {
      const endpoint = lane.route(req);
      if (endpoint) {
        const path = openApiPath(endpoint.path);
        let contentType = '';
        let written: Headers = {};
        const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => typeof res;
        const end = res.end.bind(res) as (chunk?: unknown) => typeof res;
        Object.assign(res, {
          writeHead: (status: number, headers?: OutgoingHttpHeaders) => {
            contentType = String(headers?.['Content-Type'] ?? '');
            written = Object.fromEntries(
              Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
            );
            return writeHead(status, headers);
          },
          end: (chunk?: unknown) => {
            seen.push({ operation: `GET ${path}`, status: res.statusCode });
            found.push(
              ...this.problems('GET', path, res.statusCode, contentType, JSON.parse(String(chunk)), {
                ...res.getHeaders(),
                ...written,
              }),
            );
            return end(chunk);
          },
        });
      }
      next(req, res);
    };
  }
}
