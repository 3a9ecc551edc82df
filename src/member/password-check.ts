import { DomainError } from '../shared/domain/decider';
import type { Refusal } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { tooManyRequests } from '../shared/http/too-many-requests';
import { EventStore, RateLimiter } from '../stores/ports';
import { memberFromLog } from './login';
import { PasswordHasher } from './passwords';

export const tooManyPasswordFailures: Refusal = { status: 429, when: 'too many wrong current passwords for this member lately; retry after Retry-After' };

/**
 * Checks a signed-in member's current password, limited as logins are: each attempt is counted
 * before the hash is checked, a success forgets the failures, and an attempt that never reached
 * the check is given back. A stolen session cannot guess the password to change it.
 */
export async function checkCurrentPassword(
  deps: { events: EventStore; hasher: PasswordHasher; passwordChecks: RateLimiter },
  member: { id: number; username: string },
  password: string,
): Promise<void> {
  const key = String(member.id);
  const allowance = await deps.passwordChecks.consume(key);
  if (!allowance.allowed) throw HttpError.from(tooManyRequests('too_many_password_failures', 'too many wrong current passwords for this account', allowance.resetMs));
  let valid: boolean;
  try {
    const found = await memberFromLog(deps.events, member.username);
    valid = found ? await deps.hasher.verify(found.state.password_hash, password) : await deps.hasher.verifyNothing(password);
  } catch (err) {
    await deps.passwordChecks.refund(key);
    throw err;
  }
  if (!valid) throw new DomainError('wrong_current_password', 'the current password is wrong: nothing changed');
  await deps.passwordChecks.reset(key);
}
