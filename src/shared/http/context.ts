import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';

/** What the middlewares put on ctx.state for the rest of the request. */
export interface AppState {
  requestId: string;
  log: Logger;
}

export type AppContext = ParameterizedContext<AppState>;
