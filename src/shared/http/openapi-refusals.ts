import { Endpoint, isLimitedMemberWrite, needsCsrf, Refusal } from './endpoints';
import { TOO_MANY_CHANGES } from './member-writes';
import { OpenApiRefusal, RATE_LIMITED } from './open-api-refusals';
import { bodyIsRequired } from './validate';

/** Every status the contract documents a refusal under. */
export type ErrorStatus = Refusal['status'] | 400 | 403 | 413 | 415 | 419 | 500;

/** Adds one reason under a status; a status lists its reasons in the order they are added. */
type Add = (status: ErrorStatus, when: string) => void;

/**
 * The refusals every endpoint of this kind can answer, from its declaration, then its own; a
 * partner endpoint's gate refuses what the slices declared (`partnerRefusals`). The order of the
 * calls below is the order of each status's reasons in the contract.
 */
export function refusalsOf(endpoint: Endpoint, partnerRefusals: readonly OpenApiRefusal[]): Map<ErrorStatus, string[]> {
  const refusals = new Map<ErrorStatus, string[]>();
  const add: Add = (status, when) => refusals.set(status, [...(refusals.get(status) ?? []), when]);
  if (needsCsrf(endpoint)) add(419, "X-CSRF-Token is missing or is not this session's current token");
  callerRefusals(endpoint, partnerRefusals, add);
  passwordChangeRefusal(endpoint, add);
  inputRefusals(endpoint, add);
  for (const refusal of endpoint.refusals ?? []) add(refusal.status, refusal.when);
  if (endpoint.caller.kind === 'member') memberReserved(refusals.has(422), add);
  if (needsCsrf(endpoint)) writeRefusals(endpoint, add);
  add(503, 'store_unavailable: the event store or the document store cannot be reached; retry after Retry-After');
  add(500, 'server error: never to be taken as success');
  return refusals;
}

/** Who may call: the session's member or administrator, the administrator's permission, the partner's gate. */
function callerRefusals({ caller }: Endpoint, partnerRefusals: readonly OpenApiRefusal[], add: Add): void {
  if (caller.kind === 'member') add(401, 'no member is logged into this session');
  if (caller.kind === 'admin')
    add(401, 'no administrator is logged into this session, or the one logged in was disabled (admin_disabled)');
  if (caller.kind === 'admin' && caller.permission)
    add(
      403,
      `the administrator lacks the permission ${caller.permission}, or its role group is disabled (role_group_disabled)`,
    );
  if (caller.kind === 'partner') {
    for (const refusal of [...partnerRefusals, RATE_LIMITED]) add(refusal.status, refusal.when(caller.scope));
    add(503, 'the credentials, or what the endpoint lists, cannot be read right now; retry after Retry-After');
  }
  if (caller.kind === 'admin') add(503, 'the read models are at an older projection version: run `platform upgrade`');
  if (caller.kind !== 'anyone') add(503, 'the read models are catching up; retry after Retry-After');
}

/** A session signed in with a one-time password may do nothing else until it chooses its own. */
function passwordChangeRefusal({ caller, beforePasswordChange, enrolsSecondFactor }: Endpoint, add: Add): void {
  if (caller.kind !== 'member' && caller.kind !== 'admin') return;
  add(403, 'second_factor_required: this sign-in awaits its second factor (POST …/login/second-factor)');
  if (!beforePasswordChange)
    add(403, 'password_change_required: this session signed in with a one-time password, which must be changed first');
  if (!beforePasswordChange && !enrolsSecondFactor)
    add(
      403,
      'second_factor_enrolment_required: REQUIRE_SECOND_FACTOR covers this account, which must enrol a second factor first',
    );
}

/** What the request carries: its path and query parameters, its body, and the limits on writes and logins. */
function inputRefusals(endpoint: Endpoint, add: Add): void {
  if (endpoint.params) add(422, 'a path parameter breaks its rule');
  if (endpoint.query) add(422, 'a query parameter breaks its rule; data.issues names each');
  add(422, 'the query names a parameter this endpoint does not take (unknown_query_parameter)');
  if (endpoint.body) {
    add(422, 'the body is malformed JSON or breaks a rule; data.issues names each');
    add(413, 'the body is too large');
    add(
      415,
      bodyIsRequired(endpoint.body)
        ? 'the body is missing or not application/json'
        : 'the body is not application/json',
    );
  }
  if (isLimitedMemberWrite(endpoint)) add(429, TOO_MANY_CHANGES);
  if (endpoint.login)
    add(
      429,
      'too many failed logins for this username, or for any username, from this client address; retry after Retry-After',
    );
}

/**
 * Every member endpoint documents 403 and 422 whatever it answers today: a client written against
 * the contract handles them before any endpoint uses them.
 */
function memberReserved(refusesInput: boolean, add: Add): void {
  add(403, 'reserved for a member the developer center refuses; every logged-in member is admitted today');
  if (!refusesInput)
    add(
      422,
      "reserved for a request the member's state does not allow; this endpoint takes no input and refuses none today",
    );
}

/** A write's: its stream deleted by an operator, and its Idempotency-Key. */
function writeRefusals(endpoint: Endpoint, add: Add): void {
  add(
    409,
    "stream_deleted: an operator deleted this resource's history from the event store; it cannot change any more",
  );
  add(400, 'idempotency_key_invalid: Idempotency-Key is not 1 to 255 visible ASCII characters');
  add(
    409,
    'idempotency_key_in_use: the first request under this Idempotency-Key is still running; retry after Retry-After',
  );
  add(
    422,
    'idempotency_key_reused: this Idempotency-Key came with another request (another endpoint, path, query or body)',
  );
  if (endpoint.secretInAnswer)
    add(
      409,
      'secret_already_issued: a request under this Idempotency-Key succeeded and issued the secret, which is shown once and never kept',
    );
}

/**
 * The reasons for one status: the reason alone, or a Markdown list of them, one per line. Joined
 * into one sentence, reasons that carry their own "; retry after …" read as one garbled clause.
 */
export function describedAll(reasons: string[]): string {
  return reasons.length === 1 ? reasons[0]! : reasons.map((reason) => `- ${reason}`).join('\n');
}
