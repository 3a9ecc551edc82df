import { randomUUID } from 'node:crypto';
import { Middleware } from 'koa';
import type { Logger } from 'pino';
import { withoutApiKeys } from '../redact';
import { requestLineWriter } from '../../log';
import { AppState } from './context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's X-Request-Id when it is safe to log beside ours (and no API key sent by mistake). */
export function clientRequestId(offered: unknown): string | undefined {
  return typeof offered === 'string' && SAFE_REQUEST_ID.test(offered) && withoutApiKeys(offered) === offered
    ? offered
    : undefined;
}

/**
 * Gives every request an id of the service's own, so that no client can make unrelated requests
 * share one, and logs one line when it ends: method, path, status and duration, never headers,
 * query or body. A caller's X-Request-Id (when safe to log) is logged beside it, to correlate.
 */
export function requestLog(log: Logger): Middleware<AppState> {
  const writeLine = requestLineWriter(log);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const client_request_id = clientRequestId(ctx.get('X-Request-Id'));
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    // Made when something logs for this request: most requests log nothing but the line below.
    let requestLog: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (requestLog ??= log.child({ request_id: requestId, client_request_id })),
      enumerable: true,
    });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const duration_ms = Number(process.hrtime.bigint() - started) / 1e6;
      writeLine({
        request_id: requestId,
        client_request_id,
        method: ctx.method,
        path: withoutApiKeys(ctx.path),
        status: ctx.status,
        duration_ms,
      });
    }
  };
}
