import { randomUUID } from 'node:crypto';
import { Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppState } from './context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is safe to echo) and logs one
 * line when it ends. Only method, path, status and duration: never headers, query or body.
 */
export function requestLog(log: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const offered = ctx.get('X-Request-Id');
    const requestId = SAFE_REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const duration_ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        { request_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, duration_ms },
        'request',
      );
    }
  };
}
