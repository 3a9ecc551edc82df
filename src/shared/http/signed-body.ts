import getRawBody from 'raw-body';
import { Middleware } from 'koa';
import { AppContext, AppState } from './context';
import { HttpError } from './envelope';
import { refuseLoneSurrogates } from './well-formed';

/**
 * How a caller that signs its requests (a partner service such as GitHub's secret scanning) is
 * checked: over the raw bytes, before anything parses them, so that a signature over one body
 * never passes for another and nothing unsigned reaches a parser. Throws an HttpError to refuse.
 */
export type SignatureCheck = (raw: Buffer, ctx: AppContext) => Promise<void>;

/**
 * Reads the raw body up to the limit, has its signature checked, and only then parses it as
 * JSON (any JSON value: a signed caller may send an array). What a parser needs of the request
 * (`rawBody`, `body`) is set as the JSON body parser sets it.
 */
export function signedJsonBody(limitKb: number, check: SignatureCheck): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.request.is('application/json', '+json') === false)
      throw new HttpError(415, 'unsupported_media_type', 'send the body as application/json');
    const raw = await getRawBody(ctx.req, { limit: `${limitKb}kb`, length: ctx.get('Content-Length') || undefined });
    await check(raw, ctx);
    const text = raw.toString('utf8');
    ctx.request.rawBody = text;
    try {
      ctx.request.body = JSON.parse(text) as unknown;
    } catch {
      throw new HttpError(422, 'malformed_json', 'the request body is not valid JSON');
    }
    refuseLoneSurrogates(ctx.request.body);
    await next();
  };
}
