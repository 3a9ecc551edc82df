import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { TraceContext } from '../tracing';

/** What the middlewares put on ctx.state for the rest of the request. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** The request's span when tracing, for the spans of the commands it asks for. */
  trace?: TraceContext;
}

export type AppContext = ParameterizedContext<AppState>;
