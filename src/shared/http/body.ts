import bodyParser from 'koa-bodyparser';
import { Context, Middleware } from 'koa';
import { AppState } from './context';
import { HttpError } from './envelope';
import { refuseLoneSurrogates } from './well-formed';

const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * JSON bodies only. A body of another type is refused with 415 before it is read; a request
 * without a body reads as the empty object, which the endpoints whose body is `{}` accept.
 */
export function jsonBody(limitKb: number): Middleware<AppState>[] {
  const requireJson: Middleware<AppState> = async (ctx, next) => {
    if (!WITHOUT_BODY.has(ctx.method) && !sentNoBody(ctx)) {
      if (ctx.request.is('application/json', '+json') === false)
        throw new HttpError(415, 'unsupported_media_type', 'send the body as application/json');
      // JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be read wrongly.
      const charset = ctx.request.charset.toLowerCase();
      if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
        throw new HttpError(
          415,
          'unsupported_media_type',
          `the body is declared as ${charset.slice(0, 40)}: send JSON in UTF-8 (charset=utf-8, or no charset)`,
        );
      }
    }
    await next();
  };
  const parser = bodyParser({ enableTypes: ['json'], jsonLimit: `${limitKb}kb`, strict: true }) as Middleware<AppState>;
  return [requireJson, sayingWhatIsForbidden(parser)];
}

/**
 * No body at all, as fetch, axios and Node's own client send a POST without one: Content-Length 0
 * and no type. type-is counts any Content-Length as a body, whose missing type would be a 415.
 */
function sentNoBody(ctx: Context): boolean {
  return ctx.get('Content-Length') === '0' && !ctx.get('Transfer-Encoding') && !ctx.get('Content-Type');
}

// What @hapi/bourne (under co-body) throws for a key that could poison a prototype.
const PROTOTYPE_KEY = 'Object contains forbidden prototype property';

/** Valid JSON with a `__proto__` key is refused for that key, not as "not valid JSON". */
function sayingWhatIsForbidden(parser: Middleware<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    let parsed = false;
    try {
      await parser(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      if (err instanceof SyntaxError && err.message === PROTOTYPE_KEY) {
        throw new HttpError(422, 'forbidden_key', 'the body has a __proto__ key, which no endpoint accepts: remove it');
      }
      throw err;
    }
    if (!parsed) return;
    refuseLoneSurrogates(ctx.request.body);
    await next();
  };
}
