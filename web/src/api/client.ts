import createClient from 'openapi-fetch';
import type { components, paths } from '../../generated/contract';

export type Schemas = components['schemas'];
export type ScopeName = paths['/credentials/{member_id}/scopes/{scope}/approve']['post']['parameters']['path']['scope'];

/** What the console shows of a refusal: the envelope's message, its reason and the fields it names. */
export interface Refusal {
  status: number;
  message: string;
  error: string;
  issues: { path: string; message: string }[];
  /** For a decision too late for a matter decided meanwhile: who decided it (null: no longer known) and when. */
  decided?: { by: string | null; at: string };
}

/**
 * The service's reasons for refusing an action because of the state of what it acted on: named
 * `<thing>_not_<state>` or `<thing>_already_<state>`, or its history deleted; and the answer to an
 * action recorded but not yet readable, which must not be sent again.
 */
const STATE_REFUSED =
  /_not_(pending|approved|active|installed|requested|found)$|_already_|^(stream_deleted|recorded_not_visible_yet)$/;

/**
 * Refused for the state of what it acted on (decided, installed or removed by someone else
 * meanwhile), or recorded already: the screen that offered the action is out of date. Not for what
 * was typed (`validation_failed`, `invalid_page_roles`, `expiry_in_past`…), nor for what a retry of
 * the same action may pass (`concurrent_modification`, `read_model_lagging`), which keep the form.
 */
export const isStale = (refusal: Refusal): boolean => STATE_REFUSED.test(refusal.error);

export type Answer<T> = { ok: true; data: T; message: string } | { ok: false; refusal: Refusal };

// The codes with which the service says the session no longer holds the caller.
const SIGNED_OUT = new Set(['not_logged_in', 'admin_not_logged_in', 'session_expired', 'admin_disabled']);
const SESSION_GONE = 'You are signed out: sign in again to go on; what you typed is kept.';

// fetch is looked up on each call, not captured here: a test or a polyfill may install it later.
export const api = createClient<paths>({
  baseUrl: new URL('/api/v1', location.href).href,
  credentials: 'same-origin',
  fetch: (request) => fetch(request),
});

let csrfToken: Promise<string> | null = null;
let onSignedOut: (refusal: Refusal) => void = () => {};

/** The app learns here that a call found the session gone, to send the user back to sign-in. */
export function whenSignedOut(listener: (refusal: Refusal) => void): void {
  onSignedOut = listener;
}

/** Logging in or out rotates the session's token: the next write fetches it again. */
export function forgetCsrfToken(): void {
  csrfToken = null;
}

async function token(): Promise<string> {
  csrfToken ??= fetch('/api/v1/developer/session', { credentials: 'same-origin' })
    .then((r) => r.json() as Promise<{ data: { csrf_token: string } }>)
    .then((body) => body.data.csrf_token)
    .catch((err: unknown) => {
      csrfToken = null;
      throw err;
    });
  return csrfToken;
}

/** The header every write carries, as the contract declares it. */
export async function csrf(): Promise<{ 'X-CSRF-Token': string }> {
  return { 'X-CSRF-Token': await token() };
}

function refusalOf(status: number, body: unknown): Refusal {
  const envelope = (body ?? {}) as {
    message?: string;
    data?: { error?: string; issues?: Refusal['issues']; decided_by?: string | null; decided_at?: string };
  };
  const decidedAt = envelope.data?.decided_at;
  return {
    status,
    message: envelope.message ?? `the service answered ${status}`,
    error: envelope.data?.error ?? 'unknown',
    issues: envelope.data?.issues ?? [],
    ...(decidedAt && { decided: { by: envelope.data?.decided_by ?? null, at: decidedAt } }),
  };
}

interface Sent<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * One call through the contract's typed client: the envelope's data, or its refusal. A token that
 * went stale (another tab logged in) is fetched again and the call retried once: `send` asks
 * `csrf()` for it each time.
 */
/** For the call that asks who is signed in: a first visit is signed out, not expired. */
interface Quiet {
  signedOutIsExpected: boolean;
}

type DataOf<E> = E extends { data: infer D } ? D : null;

export async function call<E extends { message: string }>(
  send: () => Promise<Sent<E>>,
  options?: Quiet,
): Promise<Answer<DataOf<E>>> {
  const answer = await raw(send, options);
  if (!answer.ok) return answer;
  const envelope = answer.data as E & { data?: DataOf<E> };
  return { ok: true, data: envelope.data ?? (null as DataOf<E>), message: envelope.message };
}

/** A call whose answer is not in the envelope (GET /openapi), refused in the envelope all the same. */
export async function raw<T>(send: () => Promise<Sent<T>>, options?: Quiet): Promise<Answer<T>> {
  let sent: Sent<T>;
  try {
    sent = await send();
    if (sent.response.status === 419) {
      forgetCsrfToken();
      sent = await send();
    }
  } catch {
    return {
      ok: false,
      refusal: {
        status: 0,
        message: 'the service cannot be reached: check the connection and try again',
        error: 'network',
        issues: [],
      },
    };
  }
  if (sent.data !== undefined) return { ok: true, data: sent.data, message: '' };
  const refusal = refusalOf(sent.response.status, sent.error);
  if (sent.response.status !== 401 || !SIGNED_OUT.has(refusal.error) || options?.signedOutIsExpected)
    return { ok: false, refusal };
  onSignedOut(refusal);
  // The service words it for API clients ("log in first (POST /developer/login)"); behind the
  // sign-in dialog the screen says what happened, in the console's words.
  return { ok: false, refusal: { ...refusal, message: SESSION_GONE } };
}
