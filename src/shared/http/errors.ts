import { Middleware } from 'koa';
import type { Logger } from 'pino';
import { DomainError } from '../domain/decider';
import { AuthenticationFailed, ConcurrencyConflict, SecretAlreadyIssued } from '../commands/errors';
import { ProjectionLag } from '../projections/lag';
import { ReplicaUnavailable } from '../projections/replica';
import { StoreUnavailable, StreamDeleted } from '../../stores/ports';
import { isStorageFull } from '../../stores/storage-full';
import { AppContext, AppState } from './context';
import { HttpError, refusalEnvelope } from './envelope';

/** Turns anything thrown below into the envelope; a 500 says nothing about internals. */
export const errorEnvelope: Middleware<AppState> = async (ctx, next) => {
  try {
    await next();
    if (ctx.body === undefined && ctx.status === 404) {
      throw new HttpError(
        404,
        'not_found',
        `no endpoint ${ctx.method} ${ctx.path}: check the path against the contract`,
      );
    }
  } catch (err) {
    answerRefusal(ctx, err);
  }
};

/** Answers with the envelope of what was thrown, as the client is to see it. */
export function answerRefusal(ctx: AppContext, err: unknown): void {
  const refusal = refusalFor(err, () => ctx.state.log);
  ctx.status = refusal.status;
  for (const [name, value] of Object.entries(refusal.headers ?? {})) ctx.set(name, value);
  ctx.body = refusalEnvelope(refusal);
}

/** The answer to a retry whose first request issued a secret: it was shown once, and nothing kept it. */
export const secretAlreadyIssued = () =>
  new HttpError(
    409,
    'secret_already_issued',
    'the first request under this Idempotency-Key succeeded and issued a secret, which is shown once and never kept: it is not shown again (rotate it if it was lost)',
  );

/**
 * What the client is told of anything thrown while answering it, logged (through the request's
 * logger, made only then) when it is the service's failure: a bug, or a store out of reach.
 */
export function refusalFor(err: unknown, requestLog: () => Logger): HttpError {
  const refusal = toHttpError(err);
  if (refusal.error === 'internal_error') requestLog().error({ err }, 'request failed');
  else if (err instanceof StoreUnavailable && err.permanent)
    requestLog().error(
      { err },
      'request refused: a store refuses this service (credentials, rights): the operator must act',
    );
  else if (refusal.error === 'store_unavailable') requestLog().warn({ err }, 'request refused: a store is unreachable');
  // One line an operator can act on, without the stack: the cause is known.
  else if (refusal.error === 'storage_full')
    requestLog().error(
      { reason: err instanceof Error ? err.message : String(err) },
      'request refused: a store is out of space',
    );
  return refusal;
}

/** The status a thrown error is answered with, without logging it (the envelope does that). */
export const statusOf = (err: unknown): number => toHttpError(err).status;

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError) return new HttpError(422, err.error, err.message, err.problems);
  if (err instanceof AuthenticationFailed) return new HttpError(401, err.error, err.message);
  if (err instanceof SecretAlreadyIssued) return secretAlreadyIssued();
  if (err instanceof ConcurrencyConflict) {
    return new HttpError(409, 'concurrent_modification', 'the resource changed under concurrent requests: retry');
  }
  const unavailable = unavailableNow(err);
  if (unavailable) return unavailable;
  if (err instanceof StreamDeleted) {
    return new HttpError(
      409,
      'stream_deleted',
      'an operator deleted the history of this resource: it cannot change any more',
    );
  }
  return (
    fromBodyParser(err) ??
    new HttpError(500, 'internal_error', 'internal error: the request id identifies it in the logs')
  );
}

/** A refusal for now, answered 503 with when to retry: a read model, a store or the disk cannot serve it. */
function unavailableNow(err: unknown): HttpError | null {
  if (err instanceof ReplicaUnavailable) {
    const { error, what } = err.refusal ?? {
      error: 'read_model_unavailable',
      what: `the ${err.projection} read model cannot be read`,
    };
    return new HttpError(503, error, `${what} right now: retry in a moment`, undefined, { 'Retry-After': '1' });
  }
  if (err instanceof ProjectionLag) {
    return new HttpError(503, 'read_model_lagging', 'the read models are catching up: retry in a moment', undefined, {
      'Retry-After': '1',
    });
  }
  if (err instanceof StoreUnavailable) {
    // Whether an append took effect is unknown; the adapter's own retries reused its event ids, so it applied at most once.
    return new HttpError(
      503,
      'store_unavailable',
      'the service cannot reach its stores right now: retry in a few seconds',
      undefined,
      {
        'Retry-After': '5',
      },
    );
  }
  if (isStorageFull(err)) {
    // A write refused for space stored nothing; one that was stored before (a session saved after it) is in the log.
    return new HttpError(
      503,
      'storage_full',
      'the service has run out of storage space and cannot record anything now: retry later',
      undefined,
      {
        'Retry-After': '60',
      },
    );
  }
  return null;
}

// What co-body's strict mode throws for valid JSON that is neither an object nor an array.
const NOT_OBJECT_OR_ARRAY = 'invalid JSON, only supports object and array';

/** koa-bodyparser (through co-body and raw-body) reports with an HTTP status on the error. */
function fromBodyParser(err: unknown): HttpError | null {
  const { status, type, code, message } = (err ?? {}) as {
    status?: unknown;
    type?: unknown;
    code?: unknown;
    message?: unknown;
  };
  return unreadableBody(status, type) ?? undecompressableBody(code) ?? (status === 400 ? malformedJson(message) : null);
}

function unreadableBody(status: unknown, type: unknown): HttpError | null {
  if (status === 413 || type === 'entity.too.large') {
    return new HttpError(413, 'payload_too_large', 'the request body is too large');
  }
  if (status === 415 || type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new HttpError(415, 'unsupported_media_type', 'send the body as application/json in UTF-8');
  }
  return null;
}

function undecompressableBody(code: unknown): HttpError | null {
  // zlib refused a body sent with Content-Encoding gzip or deflate (Z_*), or its Brotli decoder one sent as br (ERR__ERROR_*).
  if (typeof code !== 'string' || !(code.startsWith('Z_') || code.startsWith('ERR__ERROR_'))) return null;
  return new HttpError(422, 'malformed_body', 'the request body could not be decompressed: check its Content-Encoding');
}

function malformedJson(message: unknown): HttpError {
  return new HttpError(
    422,
    'malformed_json',
    message === NOT_OBJECT_OR_ARRAY
      ? 'the request body is a JSON string, number, boolean or null: send a JSON object, {} at least'
      : 'the request body is not valid JSON: send a JSON object',
  );
}
