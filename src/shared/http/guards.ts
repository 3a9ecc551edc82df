import { Middleware } from 'koa';
import { AppContext, AppState } from './context';
import { HttpError } from './envelope';
import { AdminIdentity, MemberIdentity, sessionOf } from './session';
import { awaitingSecondFactor, pendingSignInOf } from './pending-sign-in';
import { sessionWasGone } from './session-records';

function notLoggedIn(ctx: AppContext, error: string, login: string): HttpError {
  if (sessionWasGone(ctx)) {
    return new HttpError(401, 'session_expired', `this session expired or was ended: log in again (${login})`);
  }
  return new HttpError(401, error, `log in first (${login})`);
}

export function memberOf(ctx: AppContext): MemberIdentity {
  const member = sessionOf(ctx).member;
  if (!member && pendingSignInOf(ctx, 'member')) throw awaitingSecondFactor('member');
  if (!member) throw notLoggedIn(ctx, 'not_logged_in', 'POST /developer/login, as a developer member');
  return member;
}

export function adminOf(ctx: AppContext): AdminIdentity {
  const admin = sessionOf(ctx).admin;
  if (!admin && pendingSignInOf(ctx, 'admin')) throw awaitingSecondFactor('admin');
  if (!admin) throw notLoggedIn(ctx, 'admin_not_logged_in', 'POST /admin/login, as an administrator');
  return admin;
}

/**
 * Refuses at once a request whose cookie named a session that is gone (401 session_expired). Its
 * CSRF token cannot match either, and a 419 would send the caller to fetch a token, only to be
 * told next that nobody is logged in: the reason, an expired session, would be lost.
 */
export function refuseGoneSession(side: 'member' | 'admin'): Middleware<AppState> {
  const identify = side === 'member' ? memberOf : adminOf;
  return async (ctx, next) => {
    // A gone session was replaced by an empty one: it holds no identity, so this throws.
    if (sessionWasGone(ctx)) identify(ctx);
    await next();
  };
}

export const requireMember: Middleware<AppState> = async (ctx, next) => {
  memberOf(ctx);
  await next();
};

/**
 * What a signed-in session is held to before anything else: a one-time password to replace, a
 * second factor to enrol (REQUIRE_SECOND_FACTOR). Each is a flag on the identity, ended by the
 * endpoint that lifts it (`restrictionsOf`, endpoints.ts).
 */
export type SessionRestriction = 'password_change_required' | 'second_factor_enrolment_required';

const FIRST_STEP: Record<SessionRestriction, Record<'member' | 'admin', string>> = {
  password_change_required: { member: 'POST /developer/password', admin: 'POST /admin/password' },
  second_factor_enrolment_required: { member: 'POST /developer/2fa/totp', admin: 'POST /admin/2fa/totp' },
};

const WHY: Record<SessionRestriction, (where: string) => string> = {
  password_change_required: (where) =>
    `this session signed in with a one-time password: choose your own first (${where})`,
  second_factor_enrolment_required: (where) =>
    `this account must have a second factor (REQUIRE_SECOND_FACTOR): enrol one first (${where}, then its /confirm)`,
};

/** Refuses (403, the restriction's name) a member or administrator whose session is held to `restriction`. */
export function refuseWhileRestricted(restriction: SessionRestriction, side: 'member' | 'admin'): Middleware<AppState> {
  return async (ctx, next) => {
    if (sessionOf(ctx)[side]?.[restriction])
      throw new HttpError(403, restriction, WHY[restriction](FIRST_STEP[restriction][side]));
    await next();
  };
}
