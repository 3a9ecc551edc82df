import { AppContext } from './context';

/** Every JSON answer of the service has this shape (specification §2.1). */
export interface Envelope<Data = unknown> {
  code: number;
  message: string;
  data: Data;
}

export function respond<Data>(ctx: AppContext, data: Data, message = 'ok'): void {
  ctx.status = 200;
  ctx.body = { code: 0, message, data } satisfies Envelope<Data>;
}

export interface Issue {
  path: string;
  message: string;
}

/** A refusal the client can act on: status, stable reason, and a message that says what to fix. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
