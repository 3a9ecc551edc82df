import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Middleware } from 'koa';
import { AuthenticationFailed } from '../shared/commands/errors';
import { Settings } from '../config';
import { loginSchema, normaliseUsername } from './fields';
import { Allowance, LimitPolicy, RateLimiter } from '../stores/ports';
import { tellStanding } from '../shared/http/rate-limit-fields';
import type { AddressKey } from '../shared/http/client-address';
import { AppContext, AppState } from '../shared/http/context';
import { pendingSignInOf } from '../shared/http/pending-sign-in';
import { LoginRealm } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { tooManyRequests } from '../shared/http/too-many-requests';

/** Member and administrator logins are separate key spaces: a member's failures never block an administrator. */
export function loginPolicy(settings: Settings, realm: LoginRealm): LimitPolicy {
  return {
    name: `login-${realm}`,
    points: settings.LOGIN_MAX_FAILURES,
    windowSeconds: settings.LOGIN_FAILURE_WINDOW_SECONDS,
    blockSeconds: settings.LOGIN_BLOCK_SECONDS,
  };
}

/** Failed password checks of one client address across usernames: made-up usernames cost Argon2 too. */
export function loginAddressPolicy(settings: Settings, realm: LoginRealm): LimitPolicy {
  return {
    name: `login-${realm}-address`,
    points: settings.LOGIN_ADDRESS_MAX_FAILURES,
    windowSeconds: settings.LOGIN_FAILURE_WINDOW_SECONDS,
    blockSeconds: settings.LOGIN_BLOCK_SECONDS,
  };
}

/** Wrong current passwords of one member when changing it: counted as a login's failures are. */
export function passwordChangePolicy(settings: Settings): LimitPolicy {
  return { ...loginPolicy(settings, 'member'), name: 'password-change' };
}

/** Password-reset requests per client address, and reset links mailed per member, per hour. */
export function resetPolicies(settings: Settings): { address: LimitPolicy; member: LimitPolicy } {
  return {
    address: {
      name: 'password-reset-address',
      points: settings.PASSWORD_RESET_ADDRESS_LIMIT,
      windowSeconds: 3600,
      blockSeconds: 0,
    },
    member: {
      name: 'password-reset-member',
      points: settings.PASSWORD_RESET_MEMBER_LIMIT,
      windowSeconds: 3600,
      blockSeconds: 0,
    },
  };
}

export interface LoginLimiters {
  /** Per client address and username. */
  account: RateLimiter;
  /** Per client address, whatever the username. */
  address: RateLimiter;
  /** The policies of the two, whose standings every counted attempt's answer tells. */
  policies: { account: LimitPolicy; address: LimitPolicy };
}

/** What a success gives back: the username's count cleared, the address's attempt refunded. */
const afterSuccess = (policy: LimitPolicy, cleared: boolean, allowance: Allowance): Allowance =>
  cleared
    ? { allowed: true, remaining: policy.points, resetMs: policy.windowSeconds * 1000 }
    : { ...allowance, remaining: Math.min(policy.points, allowance.remaining + 1) };

/** A password typed into the username field must not be kept in clear in the counters. */
function usernameDigest(username: string): string {
  return createHash('sha256').update(normaliseUsername(username)).digest('base64url');
}

/** A passkey sign-in (src/access/passkeys) names no username: the credential offered stands for it. */
const passkeyAttempt = z.object({ response: z.object({ id: z.string().min(1) }) });

/** Whom a sign-in's body names: the username typed, or the passkey offered; null for a body no login takes. */
function usernameInBody(ctx: AppContext): string | null {
  const login = loginSchema.safeParse(ctx.request.body);
  if (login.success) return login.data.username;
  const passkey = passkeyAttempt.safeParse(ctx.request.body);
  return passkey.success ? `passkey ${passkey.data.response.id}` : null;
}

/**
 * The username of the sign-in awaiting its second factor: a wrong code counts against the same
 * username and address as a wrong password, so guessing codes is limited as guessing passwords is.
 */
export const pendingUsername =
  (side: LoginRealm) =>
  (ctx: AppContext): string | null =>
    pendingSignInOf(ctx, side)?.identity.username ?? null;

/**
 * Failed logins per username (folded as usernames are) and client address, and per client
 * address across usernames. Each attempt is counted before its password is checked and a
 * success gives it back, so that a blocked client costs no password hashing, and of simultaneous
 * attempts no more than the limit reach the check. Keyed by the address too, so that guessing
 * from one address cannot lock the account out everywhere.
 */
export function limitLoginFailures(
  limiters: LoginLimiters,
  keyOf: AddressKey,
  usernameOf: (ctx: AppContext) => string | null = usernameInBody,
): Middleware<AppState> {
  return async (ctx, next) => {
    const username = usernameOf(ctx);
    // The endpoint refuses a malformed body (422) without checking a password: nothing to count.
    if (username === null) return next();
    const address = keyOf(ctx.ip);
    const account = `${address}/${usernameDigest(username)}`;
    const { policies } = limiters;
    const fromAddress = await limiters.address.consume(address);
    if (!fromAddress.allowed) {
      tellStanding(ctx, [policies.address, fromAddress]);
      throw HttpError.from(
        tooManyRequests('too_many_login_failures', 'too many failed logins from this address', fromAddress.resetMs),
      );
    }
    const forAccount = await limiters.account.consume(account);
    if (!forAccount.allowed) {
      await limiters.address.refund(address);
      tellStanding(
        ctx,
        [policies.account, forAccount],
        [policies.address, afterSuccess(policies.address, false, fromAddress)],
      );
      throw HttpError.from(
        tooManyRequests(
          'too_many_login_failures',
          'too many failed logins for this username from this address',
          forAccount.resetMs,
        ),
      );
    }
    // A wrong password (401) answers with these standings; a success with what it gives back.
    tellStanding(ctx, [policies.account, forAccount], [policies.address, fromAddress]);
    try {
      await next();
    } catch (err) {
      // Only a wrong password (or second factor) counts; an attempt that never reached the check (503) does not.
      if (!(err instanceof AuthenticationFailed))
        await Promise.all([limiters.account.refund(account), limiters.address.refund(address)]);
      throw err;
    }
    await Promise.all([limiters.account.reset(account), limiters.address.refund(address)]);
    tellStanding(
      ctx,
      [policies.account, afterSuccess(policies.account, true, forAccount)],
      [policies.address, afterSuccess(policies.address, false, fromAddress)],
    );
  };
}
