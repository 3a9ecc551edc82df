/** The header fields the contract declares on each answer: request id, limits, Retry-After, session cookie, ETag. */
import { z } from 'zod';
import { Endpoint } from './endpoints';
import { ErrorStatus } from './openapi-refusals';
import { rateLimitsOf } from './openapi-rate-limits';

const idempotentReplayed = z.literal('true').optional().meta({
  description: 'The answer kept for the first request under this Idempotency-Key, given again: nothing ran this time',
});

const retryAfter = z.int().min(1).meta({ description: 'Seconds to wait before trying again' });

export const requestId = {
  'X-Request-Id': z.string().meta({
    description: "This answer's id, as the service logged it; a client's own X-Request-Id is logged beside it",
  }),
};

const sessionCookie = z.string().meta({
  id: 'SessionCookie',
  description:
    'PHPSESSID=<session id>; HttpOnly; SameSite=Lax (Secure behind HTTPS): once per answer, when the session is created, renewed within its idle limit, or given a new id',
});

/**
 * Set-Cookie wherever a session is read: optional, as the session renews its cookie when it is
 * used; required on the success of a login, registration or logout, which always gives a new id.
 */
export function cookieOf(endpoint: Endpoint, status: 200 | 304 | ErrorStatus): z.ZodRawShape {
  if (endpoint.caller.kind === 'partner') return {};
  return { 'Set-Cookie': status === 200 && endpoint.movesSession ? sessionCookie : sessionCookie.optional() };
}

/**
 * The header fields of an answer: its request id always; Retry-After on a 429, and on a 503 when
 * waiting can help (not on `upgrade_required`); and, for the open API and a member's writes, where
 * the API id or the member stands on every answer that follows the count (always on 200 and 429; on
 * another refusal when it came after the count); on the open API's 401, the client address's standing.
 */
export function headersOf(
  status: 200 | ErrorStatus,
  limits: ReturnType<typeof rateLimitsOf>,
  write: boolean,
): z.ZodObject {
  // Where a limit counts only some answers (a login's wrong password is one, a 401), every one may tell it.
  if (limits && !limits.always && status !== 500)
    return headersCounting(status, {}, write).extend(z.object(limits.fields).partial().shape);
  if (status === 401 && limits?.onCredentialRefused) return z.object({ ...requestId, ...limits.onCredentialRefused });
  return headersCounting(status, limits && status !== 401 && status !== 500 ? limits.fields : {}, write);
}

/** The header fields of an answer whose limit's fields are `counted` (none: {}). */
function headersCounting(status: 200 | ErrorStatus, counted: z.ZodRawShape, write: boolean): z.ZodObject {
  const replayed = write && status < 500 ? { 'Idempotent-Replayed': idempotentReplayed } : {};
  switch (status) {
    case 200:
      return z.object({ ...requestId, ...counted, ...replayed });
    case 409:
      return z.object({
        ...requestId,
        ...z.object({ 'Retry-After': retryAfter, ...counted, ...replayed }).partial().shape,
      });
    case 429:
      return z.object({ ...requestId, 'Retry-After': retryAfter, ...counted });
    case 503:
      return z.object({ ...requestId, ...z.object({ 'Retry-After': retryAfter, ...counted }).partial().shape });
    default:
      return z.object({ ...requestId, ...z.object({ ...counted, ...replayed }).partial().shape });
  }
}

/** The header fields of an answer a client may keep and ask again with If-None-Match. */
export const etag = {
  ETag: z.string().meta({ description: 'Names this version of the answer: send it back in If-None-Match' }),
};
export const revalidation = {
  ...etag,
  'Content-Encoding': z
    .enum(['br', 'gzip'])
    .optional()
    .meta({ description: 'How the body is compressed, as Accept-Encoding allowed; absent when it is not' }),
};
