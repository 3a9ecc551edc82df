import bodyParser from 'koa-bodyparser';
import { Middleware } from 'koa';
import { AppState } from './context';
import { HttpError } from './envelope';

const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * JSON bodies only. A body of another type is refused with 415 before it is read; a request
 * without a body reads as the empty object, which the endpoints whose body is `{}` accept.
 */
export function jsonBody(limitKb: number): Middleware<AppState>[] {
  const requireJson: Middleware<AppState> = async (ctx, next) => {
    if (!WITHOUT_BODY.has(ctx.method) && ctx.request.is('application/json', '+json') === false) {
      throw new HttpError(415, 'unsupported_media_type', 'send the body as application/json');
    }
    await next();
  };
  const parser = bodyParser({ enableTypes: ['json'], jsonLimit: `${limitKb}kb`, strict: true }) as Middleware<AppState>;
  return [requireJson, parser];
}
