import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { AppContext } from '../context';
import { endpoint, Endpoint } from '../endpoints';
import { OpenApiRefusal } from '../open-api-refusals';
import { contractOf } from '../openapi';

/** The document as it travels: built once, with a compressed copy per encoding a browser asks for. */
interface Prepared {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface ServedContract {
  endpoints: Endpoint[];
  /**
   * Builds the document now rather than at its first request: the build takes about a second, and
   * `serve` calls this before it answers anyone, so the console's Contract screen never waits on it.
   */
  prepare(): void;
}

/** GET /openapi: the contract, generated from the endpoints themselves and the refusals the slices declared. */
export function servedContract(
  endpoints: () => Endpoint[],
  partnerRefusals: readonly OpenApiRefusal[],
): ServedContract {
  let prepared: Prepared | undefined;
  const prepare = (): Prepared => (prepared ??= encode(JSON.stringify(contractOf(endpoints(), partnerRefusals))));
  return {
    prepare: () => void prepare(),
    endpoints: [
      endpoint({
        method: 'GET',
        path: '/openapi',
        caller: { kind: 'admin' },
        summary: 'The OpenAPI 3.1 contract of this service',
        revalidated: true,
        raw: 'application/json',
        response: z.looseObject({
          openapi: z.literal('3.1.0'),
          info: z.looseObject({ version: z.string() }),
          paths: z.looseObject({}),
        }),
        handler: (ctx) => send(ctx, prepare()),
      }),
    ],
  };
}

function encode(json: string): Prepared {
  const identity = Buffer.from(json);
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
    // Quality 5: 52 times smaller than the document, in tens of milliseconds rather than the seconds of 11.
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
    gzip: gzipSync(identity),
  };
}

function send(ctx: AppContext, contract: Prepared): void {
  // The same for every administrator and unchanged until a restart: kept by the browser, asked again each visit.
  ctx.set({ 'Cache-Control': 'private, no-cache', ETag: contract.etag, Vary: 'Accept-Encoding' });
  ctx.type = 'application/json';
  // Koa judges freshness only of an answer already successful.
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  // Brotli when it is accepted at all: clients list gzip first, and brotli is half gzip's size here.
  const encoding = (['br', 'gzip'] as const).find((name) => ctx.acceptsEncodings(name) === name);
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.body = encoding ? contract[encoding] : contract.identity;
}
