import { checkCurrentPassword, CountedLimit } from '../shared/http/password-failures';
import { EventStore } from '../stores/ports';
import { memberFromLog } from './login';
import { PasswordHasher } from './passwords';

/** A signed-in member's current password, limited per member (`checkCurrentPassword`). */
export async function checkMemberPassword(
  ctx: { set(field: string, value: string): void },
  deps: { events: EventStore; hasher: PasswordHasher; passwordChecks: CountedLimit },
  member: { id: number; username: string },
  password: string,
): Promise<void> {
  await checkCurrentPassword(ctx, deps.passwordChecks, String(member.id), async () => {
    const found = await memberFromLog(deps.events, member.username);
    return found ? deps.hasher.verify(found.state.password_hash, password) : deps.hasher.verifyNothing(password);
  });
}
