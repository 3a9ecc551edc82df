import type { Middleware } from 'koa';
import { AppContext, AppState } from './context';
import { HttpError } from './envelope';
import type { Refusal } from './refusal';
import {
  AdminIdentity,
  changeSession,
  MemberIdentity,
  newCsrfToken,
  PendingSignIn,
  sessionOf,
  withoutPendingSignIns,
} from './session';

/** Whose sign-in: a member's or an administrator's, each its own side of the shared session. */
export type SignInSide = 'member' | 'admin';

type IdentityOf<S extends SignInSide> = S extends 'member' ? MemberIdentity : AdminIdentity;

/** How long the second factor may take after the password: long enough to open an authenticator app. */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;

export const SECOND_FACTOR_PATHS: Record<SignInSide, string> = {
  member: '/developer/login/second-factor',
  admin: '/admin/login/second-factor',
};

/**
 * The password was right and the account has a second factor: the session gets a new id and
 * token and holds the sign-in as pending, not as `side`'s identity (whoever was signed in on that
 * side is signed out), so every endpoint but the second factor's refuses it (guards.ts).
 */
export async function beginPendingSignIn<S extends SignInSide>(
  ctx: AppContext,
  side: S,
  identity: IdentityOf<S>,
  position?: string,
): Promise<void> {
  const pending: PendingSignIn<IdentityOf<S>> = { identity, since: Date.now(), ...(position && { position }) };
  const csrf_token = newCsrfToken();
  await changeSession(ctx, {
    change: (current) => {
      const rest = withoutPendingSignIns(current, [side]);
      delete rest[side];
      return { ...rest, pending_sign_in: { ...rest.pending_sign_in, [side]: pending }, csrf_token };
    },
  });
}

/** The session's pending sign-in on `side`, or null when there is none or it is too old. */
export function pendingSignInOf<S extends SignInSide>(ctx: AppContext, side: S): PendingSignIn<IdentityOf<S>> | null {
  const pending = sessionOf(ctx).pending_sign_in?.[side] as PendingSignIn<IdentityOf<S>> | undefined;
  return pending && Date.now() - pending.since <= PENDING_SIGN_IN_MS ? pending : null;
}

/** `guard`, but a session whose sign-in on `side` awaits its second factor passes as it is (a logout abandons it). */
export function orPendingSignIn(side: SignInSide, guard: Middleware<AppState>): Middleware<AppState> {
  return (ctx, next) => (!sessionOf(ctx)[side] && pendingSignInOf(ctx, side) ? next() : guard(ctx, next));
}

/** How an endpoint that completes a pending sign-in declares `requirePendingSignIn`'s refusal. */
export const noPendingSignIn: Refusal = {
  status: 401,
  reasons: ['no_pending_sign_in'],
  when: 'no_pending_sign_in: this session has no sign-in awaiting a second factor, or it is over five minutes old',
};

/** The pending sign-in the second factor completes; 401 no_pending_sign_in when there is none (or it expired). */
export function requirePendingSignIn<S extends SignInSide>(ctx: AppContext, side: S): PendingSignIn<IdentityOf<S>> {
  const pending = pendingSignInOf(ctx, side);
  if (!pending) {
    const login = side === 'member' ? 'POST /developer/login' : 'POST /admin/login';
    throw new HttpError(
      401,
      'no_pending_sign_in',
      `this session has no sign-in awaiting a second factor, or it is over five minutes old: sign in again (${login})`,
    );
  }
  return pending;
}

/**
 * The second factor was right: signs the pending identity in as `logIntoSession` does (a new
 * session id and CSRF token), the other side's identity kept. Answers what was pending.
 */
export async function completePendingSignIn<S extends SignInSide>(
  ctx: AppContext,
  side: S,
): Promise<PendingSignIn<IdentityOf<S>>> {
  const pending = requirePendingSignIn(ctx, side);
  const csrf_token = newCsrfToken();
  await changeSession(ctx, {
    change: (current) => ({ ...withoutPendingSignIns(current, [side]), [side]: pending.identity, csrf_token }),
  });
  return pending;
}

/** The signed-in identity on `side` confirmed a second factor: REQUIRE_SECOND_FACTOR's restriction ends. */
export function secondFactorEnrolled(ctx: AppContext, side: SignInSide): void {
  const identity = sessionOf(ctx)[side];
  if (identity) delete identity.second_factor_enrolment_required;
}

/** 403 second_factor_required: the session's sign-in on `side` awaits its second factor. */
export function awaitingSecondFactor(side: SignInSide): HttpError {
  return new HttpError(
    403,
    'second_factor_required',
    `this sign-in awaits its second factor: send {code} or {recovery_code} to POST ${SECOND_FACTOR_PATHS[side]}`,
  );
}
