/** A field the service refused, as `data.issues` lists them on 422 `validation_failed`. */
export interface Issue {
  path: string;
  message: string;
}

/** The envelope every refusal comes in: the HTTP status as `code`, a stable reason in `data.error`. */
export interface RefusalEnvelope {
  code: number;
  message: string;
  data: { error: string; issues?: Issue[]; [field: string]: unknown };
}

/**
 * Any answer outside 2xx, thrown by every call of this client. `reason` is the service's stable
 * `data.error` (`invalid_credentials`, `scope_not_approved`, …, listed per operation in the
 * contract): branch on it, never on `message`, which is written for people.
 */
export class PlatformError extends Error {
  override name = 'PlatformError';
  /** The HTTP status. */
  readonly status: number;
  /** `data.error`; `unexpected_answer` when the answer was not the service's envelope (a proxy's page, say). */
  readonly reason: string;
  /** The fields a 422 `validation_failed` names; empty otherwise. */
  readonly issues: Issue[];
  /** The answer's `X-Request-Id`, for a report to the operator. */
  readonly requestId: string | null;
  /** Seconds to wait before retrying, from `Retry-After` (429, 503), or null. */
  readonly retryAfter: number | null;
  /** The whole envelope, for the fields some refusals add. */
  readonly body: RefusalEnvelope;

  constructor(status: number, body: RefusalEnvelope, headers: Headers) {
    super(`${status} ${body.data.error}: ${body.message}`);
    this.status = status;
    this.reason = body.data.error;
    this.issues = body.data.issues ?? [];
    this.body = body;
    this.requestId = headers.get('X-Request-Id');
    const retry = headers.get('Retry-After');
    this.retryAfter = retry !== null && /^\d+$/.test(retry) ? Number(retry) : null;
  }

  /** Reads a refused answer (not consumed by anyone else) into the error it stands for. */
  static async of(response: Response): Promise<PlatformError> {
    const text = await response.text();
    let body: RefusalEnvelope;
    try {
      body = JSON.parse(text) as RefusalEnvelope;
      if (typeof body?.data?.error !== 'string') throw new TypeError('not an envelope');
    } catch {
      body = {
        code: response.status,
        message: `the answer is not the service's envelope: ${text.slice(0, 200)}`,
        data: { error: 'unexpected_answer' },
      };
    }
    return new PlatformError(response.status, body, response.headers);
  }
}
