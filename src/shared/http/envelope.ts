import { withoutApiKeys } from '../redact';
import { AppContext } from './context';

/** Every JSON answer of the service has this shape. */
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
export interface Refused {
  readonly status: number;
  readonly error: string;
  readonly message: string;
  readonly issues?: Issue[];
  readonly headers?: Record<string, string>;
  /** What else the client may show of the refusal, beside the reason: who decided a stale decision's matter, and when. */
  readonly details?: Record<string, string | null>;
}

/**
 * The envelope of a refusal; issues only when there are some. Its message and issues may echo what
 * the client sent (a path, a parameter's name): an API key put there by mistake is masked,
 * whichever refusal it is.
 */
export function refusalEnvelope(refusal: Refused): Envelope<{ error: string; issues?: Issue[] }> {
  const data = refusal.issues
    ? {
        error: refusal.error,
        issues: refusal.issues.map(({ path, message }) => ({
          path: withoutApiKeys(path),
          message: withoutApiKeys(message),
        })),
      }
    : { error: refusal.error };
  if (refusal.details) Object.assign(data, refusal.details);
  return { code: refusal.status, message: withoutApiKeys(refusal.message), data };
}

/** A refusal thrown through the middleware chain. The partner lane answers plain `Refused` values instead: no stack to capture. */
export class HttpError extends Error implements Refused {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
    readonly details?: Record<string, string | null>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  static from(refusal: Refused): HttpError {
    return new HttpError(
      refusal.status,
      refusal.error,
      refusal.message,
      refusal.issues,
      refusal.headers,
      refusal.details,
    );
  }
}
