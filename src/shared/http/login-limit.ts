import { Middleware } from 'koa';
import { Settings } from '../../config';
import { loginSchema, normaliseUsername } from '../../member/fields';
import { LimitPolicy, RateLimiter } from '../../stores/ports';
import { AppState } from './context';
import { LoginRealm } from './endpoints';
import { tooManyRequests } from './too-many-requests';

/** Member and administrator logins are separate key spaces: a member's failures never block an administrator. */
export function loginPolicy(settings: Settings, realm: LoginRealm): LimitPolicy {
  return {
    name: `login-${realm}`,
    points: settings.LOGIN_MAX_FAILURES,
    windowSeconds: settings.LOGIN_FAILURE_WINDOW_SECONDS,
    blockSeconds: settings.LOGIN_BLOCK_SECONDS,
  };
}

/**
 * Failed logins per username (folded as usernames are) and client address. Each attempt is
 * counted before its password is checked and a success clears the count, so that a blocked
 * username costs no password hashing, and of simultaneous attempts no more than the limit reach
 * the check. Keyed by the address too, so that guessing from one address cannot lock the account
 * out everywhere.
 */
export function limitLoginFailures(limiter: RateLimiter): Middleware<AppState> {
  return async (ctx, next) => {
    const login = loginSchema.safeParse(ctx.request.body);
    // The endpoint refuses a malformed body (422) without checking a password: nothing to count.
    if (!login.success) return next();
    const key = `${ctx.ip}/${normaliseUsername(login.data.username)}`;
    const allowance = await limiter.consume(key);
    if (!allowance.allowed) {
      throw tooManyRequests('too_many_login_failures', 'too many failed logins for this username from this address', allowance.resetMs);
    }
    await next();
    await limiter.reset(key);
  };
}
