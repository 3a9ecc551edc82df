import { DomainError } from '../shared/domain/decider';
import type { Refusal } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { CountedLimit, tooManyPasswordFailures } from '../shared/http/password-failures';
import { tellStanding } from '../shared/http/rate-limit-fields';
import { tooManyRequests } from '../shared/http/too-many-requests';
import type { EventStore, LimitPolicy } from '../stores/ports';
import type { AccountChange } from './fields';
import { memberFromLog } from './login';
import { checkMemberPassword } from './password-check';
import type { PasswordHasher } from './passwords';

/** Address changes a member may ask for in a day: each mails a link to an address of the caller's choosing. */
export const EMAIL_CHANGES_A_DAY = 3;

export function emailChangePolicy(): LimitPolicy {
  return { name: 'email-change', points: EMAIL_CHANGES_A_DAY, windowSeconds: 86_400, blockSeconds: 0 };
}

export interface EmailChangeDeps {
  events: EventStore;
  hasher: PasswordHasher;
  /** Wrong current passwords per member, shared with the password change: one count of guesses. */
  passwordChecks: CountedLimit;
  /** Address changes asked per member (`emailChangePolicy`). */
  emailChanges: CountedLimit;
}

export const emailChangeRefusals: Refusal[] = [
  {
    status: 422,
    reasons: ['current_password_required', 'wrong_current_password'],
    when: 'a new e-mail address without current_password (current_password_required), or with a wrong one (wrong_current_password); nothing changes',
  },
  tooManyPasswordFailures,
  {
    status: 429,
    reasons: ['too_many_email_changes'],
    when: `more than ${EMAIL_CHANGES_A_DAY} e-mail address changes asked in a day (too_many_email_changes); retry after Retry-After`,
  },
];

/**
 * What a new address costs before it is asked for (ASVS V2.5, V3.7: re-authenticate before
 * changing the recovery address): the current password, counted as wrong ones are, then one of
 * the day's few changes. A session alone cannot move the account's mail elsewhere.
 */
export async function admitEmailChange(
  ctx: { set(field: string, value: string): void },
  deps: EmailChangeDeps,
  member: { id: number; username: string },
  change: AccountChange,
): Promise<void> {
  if (change.email === undefined || change.email === null) return;
  const found = await memberFromLog(deps.events, member.username);
  if (!found || change.email === found.state.email) return;
  if (!change.current_password)
    throw new DomainError(
      'current_password_required',
      'a new e-mail address needs your current password: nothing changed',
    );
  await checkMemberPassword(ctx, deps, member, change.current_password);
  const allowance = await deps.emailChanges.limiter.consume(String(member.id));
  tellStanding(ctx, [deps.emailChanges.policy, allowance]);
  if (!allowance.allowed) {
    throw HttpError.from(
      tooManyRequests(
        'too_many_email_changes',
        `at most ${EMAIL_CHANGES_A_DAY} e-mail address changes a day`,
        allowance.resetMs,
      ),
    );
  }
}
