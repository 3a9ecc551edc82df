import { DomainError } from '../domain/decider';
import type { LimitPolicy, RateLimiter } from '../../stores/ports';
import type { Refusal } from './endpoints';
import { HttpError } from './envelope';
import { tellStanding } from './rate-limit-fields';
import { tooManyRequests } from './too-many-requests';

/** A limit's counter and its policy: what it counts, and what an answer tells of it. */
export interface CountedLimit {
  limiter: RateLimiter;
  policy: LimitPolicy;
}

export const tooManyPasswordFailures: Refusal = {
  status: 429,
  reasons: ['too_many_password_failures'],
  when: 'too_many_password_failures: too many wrong current passwords for this account lately; retry after Retry-After',
};

/**
 * Checks a signed-in account's current password, limited as logins are: each attempt is counted
 * before the hash is checked, a success forgets the failures, and an attempt that never reached
 * the check is given back. A stolen session cannot guess the password to change it. The answer
 * tells where the account stands (`tellStanding`): after a success, with its whole quota again.
 */
export async function checkCurrentPassword(
  ctx: { set(field: string, value: string): void },
  { limiter, policy }: CountedLimit,
  key: string,
  matches: () => Promise<boolean>,
): Promise<void> {
  const allowance = await limiter.consume(key);
  tellStanding(ctx, [policy, allowance]);
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
  tellStanding(ctx, [policy, { ...allowance, remaining: policy.points }]);
}
