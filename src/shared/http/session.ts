import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import session from 'koa-session';
import { Middleware } from 'koa';
import { SessionStore } from '../../stores/ports';
import { AppContext, AppState } from './context';
import { HttpError } from './envelope';
import {
  moveSession,
  newIdOf,
  newSessionId,
  recordId,
  SessionLifetimes,
  sessionEndedMeanwhile,
  sessionRecords,
} from './session-records';

/** Who an administrator session holds; role and super flag as they were at login. */
export interface AdminIdentity {
  id: number;
  username: string;
  is_super: boolean;
  role_id: number | null;
  /** Signed in with a one-time password: refused everything but changing it and signing out (guards.ts). */
  password_change_required?: true;
  /** REQUIRE_SECOND_FACTOR covers it and it has none: refused everything but enrolling one (guards.ts). */
  second_factor_enrolment_required?: true;
}

export interface MemberIdentity {
  id: number;
  username: string;
  /** Signed in with a one-time password: refused everything but changing it and signing out (guards.ts). */
  password_change_required?: true;
  /** REQUIRE_SECOND_FACTOR covers it and it has none: refused everything but enrolling one (guards.ts). */
  second_factor_enrolment_required?: true;
}

/**
 * A sign-in whose password was right and whose second factor is still to come (pending-sign-in.ts):
 * the identity it will sign in, kept apart from `member`/`admin` so that no endpoint takes it for one.
 */
export interface PendingSignIn<Identity> {
  identity: Identity;
  /** Position of the account's last event, for the signed-in session's first read to wait on. */
  position?: string;
  /** When the password was checked (epoch ms): a pending sign-in lasts a few minutes only. */
  since: number;
}

/**
 * What a server-side session holds: the CSRF token and, independently of each other, a member
 * identity and an administrator identity, plus the position of the caller's last write so its
 * next read can wait for it.
 */
export interface SessionData {
  csrf_token?: string;
  member?: MemberIdentity;
  admin?: AdminIdentity;
  /** Sign-ins awaiting their second factor, per side. */
  pending_sign_in?: { member?: PendingSignIn<MemberIdentity>; admin?: PendingSignIn<AdminIdentity> };
  position?: string;
  /**
   * A WebAuthn ceremony this session began (a passkey added or signed in with): the challenge the
   * authenticator must sign, what for, and until when. Taken at the answer, so signed once.
   */
  ceremony?: { purpose: string; challenge: string; expires_at: number };
}

declare module 'koa' {
  // koa-session ships no augmentation of its own.
  interface DefaultContext {
    session: ({ regenerate(): Promise<void> | undefined } & Record<string, unknown>) | null;
  }
}

export interface SessionSettings extends SessionLifetimes {
  secureCookie: boolean;
}

const COOKIE_OUTLIVES_SESSION_MS = 24 * 60 * 60 * 1000;
const SESSION_COOKIE = 'PHPSESSID';

/** PHPSESSID: a random id in an HttpOnly cookie; the data stays on the server. */
export function sessions(app: Koa, store: SessionStore, settings: SessionSettings): Middleware<AppState> {
  const middleware = koaSession(app, store, settings);
  if (!settings.secureCookie) return middleware;
  // COOKIE_SECURE says browsers reach the service over HTTPS, terminated in front of it: the
  // connection here is plain HTTP, on which the cookie library refuses to set a Secure cookie.
  return (ctx, next) => {
    ctx.cookies.secure = true;
    return middleware(ctx, next);
  };
}

function koaSession(app: Koa, store: SessionStore, settings: SessionSettings): Middleware<AppState> {
  const cookie = {
    signed: false,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: settings.secureCookie,
    // The browser keeps the id a while past the idle limit, when the server has dropped its row
    // and the id is worthless: the next request is then told its session expired, rather than
    // that nobody ever logged in.
    maxAge: settings.idleMs + COOKIE_OUTLIVES_SESSION_MS,
    // koa-session sets the cookie up to three times in one answer (a regenerate clears the old id,
    // saves the new one, then the closing commit renews it): each setting replaces the one before,
    // so the answer carries one Set-Cookie, the last.
    overwrite: true,
  };
  return session(
    {
      key: SESSION_COOKIE,
      ...cookie,
      // Every request that uses the session renews it, in the store and in the cookie's Expires:
      // a session in use never outlives its idle limit in the browser only.
      rolling: true,
      genid: newSessionId,
      store: sessionRecords(store, settings),
      externalKey: {
        get: (ctx: AppContext) => ctx.cookies.get(SESSION_COOKIE) ?? '',
        // An answer to a request whose session a logout (or a login) ended meanwhile leaves the
        // cookie alone: renewing it would put the dead id back in place of the new one.
        set: (ctx: AppContext, id: string) => {
          if (!sessionEndedMeanwhile(ctx)) ctx.cookies.set(SESSION_COOKIE, id, cookie);
        },
      },
    },
    app,
  );
}

/** The store's id of the session this request came with: the one to keep when ending an identity's others. */
export function thisSessionRecord(ctx: AppContext): string | undefined {
  const id = ctx.cookies.get(SESSION_COOKIE);
  return id ? recordId(id) : undefined;
}

export function sessionOf(ctx: AppContext): SessionData {
  if (!ctx.session) throw new Error('session middleware is not installed');
  return ctx.session as unknown as SessionData;
}

// Signs the tokens of sessions without an identity. Known to this process only: a session kept
// nowhere (`sessionRecords`, over its address's quota) signs in through the process that opened it.
const ANONYMOUS_TOKEN_KEY = randomBytes(32);

/** The token of a session without an identity: its id, signed (OWASP's signed double-submit cookie). */
const anonymousToken = (sessionId: string): string =>
  createHmac('sha256', ANONYMOUS_TOKEN_KEY).update(sessionId).digest('base64url');

/** The current token, created on first use; the same one until login, registration or logout. */
export function csrfToken(ctx: AppContext): string {
  const data = sessionOf(ctx);
  const id = newIdOf(ctx);
  data.csrf_token ??= id ? anonymousToken(id) : newCsrfToken();
  return data.csrf_token;
}

/** The token a request must carry: its session's, or for a session kept nowhere, its cookie's id signed. */
function expectedCsrfToken(ctx: AppContext): string | undefined {
  const id = ctx.cookies.get(SESSION_COOKIE);
  return sessionOf(ctx).csrf_token ?? (id ? anonymousToken(id) : undefined);
}

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session's data with the pending sign-ins of `sides` dropped (and `pending_sign_in` itself once empty). */
export function withoutPendingSignIns(current: SessionData | null, sides: readonly string[]): SessionData {
  const { pending_sign_in, ...rest } = current ?? {};
  const others = Object.entries(pending_sign_in ?? {}).filter(([side]) => !sides.includes(side));
  return others.length > 0 ? { ...rest, pending_sign_in: Object.fromEntries(others) } : rest;
}

/**
 * Gives the session a new id with the data `change` makes of it as it is when the change commits,
 * not as this request read it (`SessionStore.regenerate`), and takes that data in.
 */
export async function changeSession(ctx: AppContext, change: Parameters<typeof moveSession>[1]): Promise<void> {
  const live = ctx.session;
  if (!live) throw new Error('session middleware is not installed');
  const stored = await moveSession(ctx, change, async () => {
    await live.regenerate();
  });
  const data = sessionOf(ctx) as unknown as Record<string, unknown>;
  for (const key of Object.keys(data)) if (!key.startsWith('_') && key !== 'isNew') delete data[key];
  for (const [key, value] of Object.entries(stored)) if (!key.startsWith('_')) data[key] = value;
}

/**
 * Logs an identity into this session: a new session id, so an id known before login is worthless
 * after it, and a new CSRF token. The other side's identity is kept only if the session still
 * holds it when the login commits: one logged out meanwhile stays out.
 */
export async function logIntoSession(ctx: AppContext, identity: Pick<SessionData, 'member' | 'admin'>): Promise<void> {
  const csrf_token = newCsrfToken();
  await changeSession(ctx, {
    change: (current) => {
      // A sign-in awaiting its second factor on the same side is over: this one replaces it. So is a
      // ceremony begun before the login: its challenge is not carried into the new session.
      const { ceremony: _ended, ...rest } = withoutPendingSignIns(current, Object.keys(identity));
      return { ...rest, ...identity, csrf_token };
    },
  });
}

/**
 * Drops one identity, leaving the other side's, under a new session id and a new token: the old
 * id is destroyed, so no request still running on it can save the identity back. A login that
 * moved the session meanwhile has the identity dropped from the session it made, too.
 */
export async function logOutOfSession(ctx: AppContext, side: 'member' | 'admin'): Promise<void> {
  const csrf_token = newCsrfToken();
  const without = (data: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(data).filter(([key]) => key !== side));
  await changeSession(ctx, {
    change: (current) => {
      const { [side]: _out, ...rest } = withoutPendingSignIns(current, [side]);
      return { ...rest, csrf_token };
    },
    successor: without,
  });
}

/** The session's identity on `side` chose its own password: the one-time password's restriction ends. */
export function passwordChanged(ctx: AppContext, side: 'member' | 'admin'): void {
  const identity = sessionOf(ctx)[side];
  if (identity) delete identity.password_change_required;
}

/** Remembers the position of the last event the caller caused or logged in on; its next read waits for it. */
export function rememberPosition(ctx: AppContext, position: string | null): void {
  if (position) sessionOf(ctx).position = position;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** 419 unless X-CSRF-Token equals this session's token (compared in constant time). */
export const requireCsrf: Middleware<AppState> = async (ctx, next) => {
  const offered = ctx.get('X-CSRF-Token');
  if (!offered) {
    throw new HttpError(
      419,
      'csrf_token_missing',
      'send the X-CSRF-Token header: GET /developer/session or /admin/session returns it',
    );
  }
  const expected = expectedCsrfToken(ctx);
  if (!expected || !timingSafeEqual(digest(offered), digest(expected))) {
    throw new HttpError(419, 'csrf_token_invalid', "the CSRF token is not this session's current one: fetch it again");
  }
  await next();
};
