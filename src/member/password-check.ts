import { checkCurrentPassword } from '../shared/http/password-failures';
import { EventStore, RateLimiter } from '../stores/ports';
import { memberFromLog } from './login';
import { PasswordHasher } from './passwords';

/** A signed-in member's current password, limited per member (`checkCurrentPassword`). */
export async function checkMemberPassword(
  deps: { events: EventStore; hasher: PasswordHasher; passwordChecks: RateLimiter },
  member: { id: number; username: string },
  password: string,
): Promise<void> {
  await checkCurrentPassword(deps.passwordChecks, String(member.id), async () => {
    const found = await memberFromLog(deps.events, member.username);
    return found ? deps.hasher.verify(found.state.password_hash, password) : deps.hasher.verifyNothing(password);
  });
}
