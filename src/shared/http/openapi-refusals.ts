import { Endpoint, isLimitedMemberWrite, needsCsrf, Refusal, restrictionsOf } from './endpoints';
import type { SessionRestriction } from './guards';
import { TOO_MANY_CHANGES } from './member-writes';
import { OPEN_API_LIMITS, OpenApiRefusal } from './open-api-refusals';
import { isPaged } from './pagination';
import { bodyIsRequired } from './validate';

/** Every status the contract documents a refusal under. */
export type ErrorStatus = Refusal['status'] | 400 | 403 | 413 | 415 | 419 | 500;

/** What an operation answers under one status: when, in the contract's words, and every `data.error` it can carry. */
export interface StatusRefusals {
  when: string[];
  reasons: string[];
}

/**
 * Adds one refusal under a status, with the reasons (`data.error`) it is answered with; none only
 * for a status reserved for reasons no code answers yet. A status lists its refusals in the order
 * they are added.
 */
type Add = (status: ErrorStatus, when: string, reasons: readonly string[]) => void;

/**
 * The refusals every endpoint of this kind can answer, from its declaration, then its own; a
 * partner endpoint's gate refuses what the slices declared (`partnerRefusals`). The order of the
 * calls below is the order of each status's refusals in the contract. Each names the reasons the
 * code answers it with, so the contract lists them all as an enum per status.
 */
export function refusalsOf(
  endpoint: Endpoint,
  partnerRefusals: readonly OpenApiRefusal[],
): Map<ErrorStatus, StatusRefusals> {
  const refusals = new Map<ErrorStatus, StatusRefusals>();
  const add: Add = (status, when, reasons) => {
    const known = refusals.get(status) ?? { when: [], reasons: [] };
    refusals.set(status, { when: [...known.when, when], reasons: [...new Set([...known.reasons, ...reasons])] });
  };
  if (needsCsrf(endpoint))
    add(419, "X-CSRF-Token is missing or is not this session's current token", [
      'csrf_token_missing',
      'csrf_token_invalid',
    ]);
  callerRefusals(endpoint, partnerRefusals, add);
  sessionRefusals(endpoint, add);
  inputRefusals(endpoint, add);
  for (const refusal of endpoint.refusals ?? []) add(refusal.status, refusal.when, refusal.reasons);
  if (endpoint.caller.kind === 'member') memberReserved(add);
  if (needsCsrf(endpoint)) writeRefusals(endpoint, add);
  storeRefusals(add);
  return refusals;
}

/** The stores' refusals, which any endpoint may meet, and the bug that no endpoint should. */
function storeRefusals(add: Add): void {
  add(503, 'store_unavailable: the event store or the document store cannot be reached; retry after Retry-After', [
    'store_unavailable',
  ]);
  add(503, 'storage_full: the service has no storage space left to record anything; retry after Retry-After', [
    'storage_full',
  ]);
  add(503, 'not_ready: the service is starting; retry after Retry-After', ['not_ready']);
  add(500, 'server error: never to be taken as success', ['internal_error']);
}

/** Who may call: the session's member or administrator, the administrator's permission, the partner's gate. */
function callerRefusals({ caller }: Endpoint, partnerRefusals: readonly OpenApiRefusal[], add: Add): void {
  if (caller.kind === 'member')
    add(401, 'no member is logged into this session (not_logged_in), or its session expired (session_expired)', [
      'not_logged_in',
      'session_expired',
    ]);
  if (caller.kind === 'admin')
    add(
      401,
      'no administrator is logged into this session (admin_not_logged_in), its session expired (session_expired), or the one logged in was disabled (admin_disabled)',
      ['admin_not_logged_in', 'session_expired', 'admin_disabled'],
    );
  if (caller.kind === 'admin' && caller.permission)
    add(
      403,
      `the administrator lacks the permission ${caller.permission} (permission_denied), or its role group is disabled (role_group_disabled)`,
      ['permission_denied', 'role_group_disabled'],
    );
  if (caller.kind === 'partner') {
    for (const refusal of [...partnerRefusals, ...OPEN_API_LIMITS])
      add(refusal.status, refusal.when(caller.scope), [refusal.reason]);
    add(
      503,
      'the credentials, or what the endpoint lists, cannot be read right now (credentials_unavailable, read_model_unavailable); retry after Retry-After',
      ['credentials_unavailable', 'read_model_unavailable'],
    );
  }
  if (caller.kind === 'admin')
    add(503, 'the read models are at an older projection version (upgrade_required): run `platform upgrade`', [
      'upgrade_required',
    ]);
  if (caller.kind !== 'anyone')
    add(
      503,
      'the read models are catching up (read_model_lagging), or one cannot be read (read_model_unavailable); retry after Retry-After',
      ['read_model_lagging', 'read_model_unavailable'],
    );
}

const RESTRICTION_WHEN: Record<SessionRestriction, string> = {
  password_change_required:
    'password_change_required: this session signed in with a one-time password, which must be changed first',
  second_factor_enrolment_required:
    'second_factor_enrolment_required: REQUIRE_SECOND_FACTOR covers this account, which must enrol a second factor first',
};

/** A sign-in awaiting its second factor, a one-time password, a second factor to enrol: each holds the session back. */
function sessionRefusals(endpoint: Endpoint, add: Add): void {
  const { caller } = endpoint;
  if (caller.kind !== 'member' && caller.kind !== 'admin') return;
  if (!endpoint.endsPendingSignIn)
    add(403, 'second_factor_required: this sign-in awaits its second factor (POST …/login/second-factor)', [
      'second_factor_required',
    ]);
  for (const restriction of restrictionsOf(endpoint)) add(403, RESTRICTION_WHEN[restriction], [restriction]);
}

/** What the request carries: its path and query parameters, its body, and the limits on writes and logins. */
function inputRefusals(endpoint: Endpoint, add: Add): void {
  if (endpoint.params)
    add(422, 'a path parameter breaks its rule (invalid_path_parameter)', ['invalid_path_parameter']);
  if (endpoint.query) add(422, 'a query parameter breaks its rule; data.issues names each', ['validation_failed']);
  if (endpoint.query && isPaged(endpoint.query))
    add(422, 'after is not the next of an earlier page (invalid_cursor)', ['invalid_cursor']);
  add(422, 'the query names a parameter this endpoint does not take (unknown_query_parameter)', [
    'unknown_query_parameter',
  ]);
  if (endpoint.body) bodyRefusals(endpoint, add);
  if (isLimitedMemberWrite(endpoint)) add(429, TOO_MANY_CHANGES, ['too_many_changes']);
  if (endpoint.login)
    add(
      429,
      'too_many_login_failures: too many failed logins for this username, or for any username, from this client address; retry after Retry-After',
      ['too_many_login_failures'],
    );
}

/** A JSON body's: its form, its size and its media type. */
function bodyRefusals(endpoint: Endpoint, add: Add): void {
  add(
    422,
    'the body is malformed JSON (malformed_json), cannot be decompressed (malformed_body), has a __proto__ key (forbidden_key) or breaks a rule (validation_failed, or the rule its own reason names); data.issues names each field',
    ['validation_failed', 'malformed_json', 'malformed_body', 'forbidden_key'],
  );
  add(413, 'the body is too large', ['payload_too_large']);
  add(
    415,
    bodyIsRequired(endpoint.body) ? 'the body is missing or not application/json' : 'the body is not application/json',
    ['unsupported_media_type'],
  );
}

/**
 * Every member endpoint documents 403 whatever it answers today: a client written against the
 * contract handles it before any endpoint uses it. No code answers it yet: no reasons.
 */
function memberReserved(add: Add): void {
  add(403, 'reserved for a member the developer center refuses; every logged-in member is admitted today', []);
}

/** A write's: its stream deleted by an operator, and its Idempotency-Key. */
function writeRefusals(endpoint: Endpoint, add: Add): void {
  add(
    409,
    "stream_deleted: an operator deleted this resource's history from the event store; it cannot change any more",
    ['stream_deleted'],
  );
  add(400, 'idempotency_key_invalid: Idempotency-Key is not 1 to 255 visible ASCII characters', [
    'idempotency_key_invalid',
  ]);
  add(
    409,
    'idempotency_key_in_use: the first request under this Idempotency-Key is still running; retry after Retry-After',
    ['idempotency_key_in_use'],
  );
  add(
    422,
    'idempotency_key_reused: this Idempotency-Key came with another request (another endpoint, path, query or body)',
    ['idempotency_key_reused'],
  );
  // Every write reads back what it decided (read-your-writes.ts).
  add(
    503,
    'recorded_not_visible_yet: the change was recorded, but the read models do not show it yet; read it back, do not send it again',
    ['recorded_not_visible_yet'],
  );
  if (endpoint.secretInAnswer)
    add(
      409,
      'secret_already_issued: a request under this Idempotency-Key succeeded and issued the secret, which is shown once and never kept',
      ['secret_already_issued'],
    );
}

/**
 * The reasons for one status: the reason alone, or a Markdown list of them, one per line. Joined
 * into one sentence, reasons that carry their own "; retry after …" read as one garbled clause.
 */
export function describedAll(reasons: string[]): string {
  return reasons.length === 1 ? reasons[0]! : reasons.map((reason) => `- ${reason}`).join('\n');
}
