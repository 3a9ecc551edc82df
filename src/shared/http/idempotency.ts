import { createHash, randomUUID } from 'node:crypto';
import { Middleware } from 'koa';
import { uuidOf } from '../../stores/event-ids';
import type { IdempotencyRecord, IdempotencyRecords, KeptAnswer } from '../../stores/ports';
import { AppContext, AppState } from './context';
import { HttpError } from './envelope';
import { answerRefusal, secretAlreadyIssued } from './errors';
import { sessionOf, thisSessionRecord } from './session';

/** How long a first answer is kept: a retry within a day gets it again (docs/rules.md, "Idempotency keys"). */
export const KEPT_FOR_MS = 24 * 60 * 60 * 1000;
/** How long a request holds its key before another may take it over: far beyond any request's time limits. */
const LEASE_MS = 60_000;
/** 1 to 255 visible ASCII characters: a UUID, or whatever the client's own request id is. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Who may call the endpoint (an endpoint's `caller.kind`). */
export type CallerKind = 'anyone' | 'member' | 'admin' | 'partner';

/** Who a key belongs to: two callers never share one, whatever they send. */
function callerOf(ctx: AppContext, caller: CallerKind): string {
  if (caller === 'member') return `member:${sessionOf(ctx).member?.id}`;
  if (caller === 'admin') return `admin:${sessionOf(ctx).admin?.id}`;
  if (caller === 'partner') return `api:${ctx.get('X-API-ID')}`;
  // Without a session there is nobody to keep an answer for: the request's own id shares with no one.
  return `session:${thisSessionRecord(ctx) ?? ctx.state.requestId}`;
}

const digest = (...parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/** What makes two requests the same one: the endpoint, its path and query, and its body byte for byte. */
const fingerprintOf = (ctx: AppContext) => digest(ctx.method, ctx.path, ctx.querystring, ctx.request.rawBody ?? '');

/**
 * Stripe's idempotency keys for a write endpoint: the first answer under a caller's key is kept
 * 24 hours, and a request sent again with it is answered that answer (Idempotent-Replayed: true)
 * instead of running again; the key sent with another request is refused, as is one whose first
 * request is still running. An answer that asks for a retry (a 5xx, a 429, a lost race) is not
 * kept: the retry runs again, and the key names the
 * events it appends, so one the first request wrote is found rather than written twice. An answer
 * that carries a secret shown once is never stored: a retry is told it was issued.
 */
export function idempotentWrites(
  records: IdempotencyRecords,
  caller: CallerKind,
  secretInAnswer: boolean,
): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.get('Idempotency-Key') === '' && ctx.headers['idempotency-key'] === undefined) return next();
    const offered = ctx.get('Idempotency-Key');
    if (!KEY.test(offered)) {
      throw new HttpError(
        400,
        'idempotency_key_invalid',
        'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)',
      );
    }
    const key = digest(callerOf(ctx, caller), offered);
    const fingerprint = fingerprintOf(ctx);
    const holder = ctx.state.requestId;
    const held = await records.begin(key, holder, fingerprint, LEASE_MS);
    if (held) return answerAgain(ctx, held, fingerprint);
    ctx.state.idempotency = { key, secretInAnswer };
    try {
      await next();
    } catch (err) {
      answerRefusal(ctx, err);
    }
    const answer = keptOf(ctx, secretInAnswer);
    // What cannot be stored is released: the lease would otherwise refuse retries for its minute.
    await (answer ? records.answered(key, holder, answer, KEPT_FOR_MS) : records.release(key, holder)).catch(
      (err: unknown) =>
        ctx.state.log.warn(
          { err },
          'the answer under an idempotency key was not kept: a retry within the minute is told it is in flight',
        ),
    );
  };
}

/**
 * Whether the answer tells the client to send the request again: a 5xx, a 429 or anything with
 * Retry-After, a lost race. Kept, it would be answered to every retry for a day.
 */
function asksForRetry(ctx: AppContext): boolean {
  const error = (ctx.body as { data?: { error?: unknown } } | null | undefined)?.data?.error;
  return (
    ctx.status >= 500 ||
    ctx.status === 429 ||
    Boolean(ctx.response.get('Retry-After')) ||
    error === 'concurrent_modification'
  );
}

/** The answer to keep, or null when a retry must run again, or the body is not JSON. */
function keptOf(ctx: AppContext, secretInAnswer: boolean): KeptAnswer | null {
  if (
    asksForRetry(ctx) ||
    (ctx.body !== undefined && ctx.body !== null && typeof ctx.body !== 'object') ||
    Buffer.isBuffer(ctx.body)
  )
    return null;
  const succeeded = ctx.status < 300;
  return { status: ctx.status, body: succeeded && secretInAnswer ? null : JSON.stringify(ctx.body ?? null) };
}

function answerAgain(ctx: AppContext, held: IdempotencyRecord, fingerprint: string): void {
  if (held.fingerprint !== fingerprint) {
    throw new HttpError(
      422,
      'idempotency_key_reused',
      'this Idempotency-Key was sent with another request: use a new key for each request',
    );
  }
  if (held.state === 'in_flight') {
    throw new HttpError(
      409,
      'idempotency_key_in_use',
      'the first request under this Idempotency-Key is still running: retry in a moment',
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
  if (held.answer.body === null) throw secretAlreadyIssued();
  ctx.status = held.answer.status;
  ctx.body = JSON.parse(held.answer.body) as unknown;
  ctx.set('Idempotent-Replayed', 'true');
}

/**
 * An id for a thing the request creates: named by the idempotency key when the caller gave one,
 * so that a retry after an unknown outcome names the same thing and finds it; else a random one.
 */
export function newIdFor(ctx: AppContext, what: string): string {
  const write = ctx.state.idempotency;
  return write ? uuidOf(JSON.stringify([what, write.key])) : randomUUID();
}
