import { DomainError } from '../domain/decider';
import type { RateLimiter } from '../../stores/ports';
import type { Refusal } from './endpoints';
import { HttpError } from './envelope';
import { tooManyRequests } from './too-many-requests';

export const tooManyPasswordFailures: Refusal = {
  status: 429,
  when: 'too many wrong current passwords for this account lately; retry after Retry-After',
};

/**
 * Checks a signed-in account's current password, limited as logins are: each attempt is counted
 * before the hash is checked, a success forgets the failures, and an attempt that never reached
 * the check is given back. A stolen session cannot guess the password to change it.
 */
export async function checkCurrentPassword(
  limiter: RateLimiter,
  key: string,
  matches: () => Promise<boolean>,
): Promise<void> {
  const allowance = await limiter.consume(key);
  if (!allowance.allowed)
    throw HttpError.from(
      tooManyRequests(
        'too_many_password_failures',
        'too many wrong current passwords for this account',
        allowance.resetMs,
      ),
    );
  let valid: boolean;
  try {
    valid = await matches();
  } catch (err) {
    await limiter.refund(key);
    throw err;
  }
  if (!valid) throw new DomainError('wrong_current_password', 'the current password is wrong: nothing changed');
  await limiter.reset(key);
}
