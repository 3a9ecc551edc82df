import { Refused } from './envelope';

/**
 * A refusal a slice answers open-API calls with (its partner gate's), declared in its slice.ts:
 * the contract documents it on every partner endpoint and the operators' metrics count the calls
 * it refused under its outcome, so that a new refusal is taught to both in one place.
 */
export interface OpenApiRefusal {
  /** The stable `data.error` it is answered with. */
  reason: string;
  status: 401 | 403 | 429;
  /** When it is answered, in the contract's words, on an endpoint of this scope; refusals worded alike are listed once. */
  when(scope: string): string;
  /** What became of the call, as the open-API metric's outcome label counts it (docs/operations.md). */
  outcome: string;
}

/** A call refused as `declared` says, with what the partner should do about it. */
export function refused({ status, reason }: OpenApiRefusal, message: string): Refused {
  return { status, error: reason, message };
}

/** The partner lane's own refusal: the open API's rate limit (open-api-limit.ts). */
export const RATE_LIMITED: OpenApiRefusal = {
  reason: 'rate_limited',
  status: 429,
  when: () => 'this API id made more calls than its rate limit allows in the window; retry after Retry-After',
  outcome: 'rate_limited',
};

/** The lane's other own refusal: too many calls refused for their credential from one client address (open-api-limit.ts). */
export const TOO_MANY_CREDENTIAL_FAILURES: OpenApiRefusal = {
  reason: 'too_many_credential_failures',
  status: 429,
  when: () =>
    'this client address made more calls refused for their credential (401) than its limit allows in the window; retry after Retry-After',
  outcome: 'too_many_credential_failures',
};

/** The open API's own refusals, beside the ones the slices declare: its two rate limits. */
export const OPEN_API_LIMITS: readonly OpenApiRefusal[] = [RATE_LIMITED, TOO_MANY_CREDENTIAL_FAILURES];

/** What became of open-API calls, as the operators' metrics count them. */
export interface OpenApiOutcomes {
  /** Every outcome a call can have: the metrics bind each ahead of the first call. */
  all: readonly string[];
  /** The outcome of a call answered with `status`, refused with `error` (the envelope's data.error) if it was. */
  of(error: string | undefined, status: number): string;
}

/** The outcomes of the slices' declared refusals and of the lane's own, beside success and what no declaration names. */
export function openApiOutcomes(declared: readonly OpenApiRefusal[]): OpenApiOutcomes {
  const refusals = [...declared, ...OPEN_API_LIMITS];
  const byReason = new Map(refusals.map(({ reason, outcome }) => [reason, outcome]));
  return {
    all: [...new Set(['ok', ...refusals.map(({ outcome }) => outcome), 'invalid_request', 'unavailable'])],
    of(error, status) {
      if (status < 400) return 'ok';
      const known = error === undefined ? undefined : byReason.get(error);
      if (known) return known;
      // A credential accepted, a request refused (an unknown query parameter): the partner's to fix.
      if (status < 500) return 'invalid_request';
      // What the partner could not be answered for: the key ring cannot vouch, a store is out, or a bug.
      return 'unavailable';
    },
  };
}
