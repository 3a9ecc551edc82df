import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { IdempotentWrite } from '../commands/context';
import type { TraceContext } from '../tracing';

/** What the middlewares put on ctx.state for the rest of the request. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** The request's span when tracing, for the spans of the commands it asks for. */
  trace?: TraceContext;
  /** The caller's idempotency key, for the command's event ids and the ids of what it creates. */
  idempotency?: IdempotentWrite;
}

export type AppContext = ParameterizedContext<AppState>;
