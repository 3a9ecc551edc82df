import { adminDecider, AdminEvent, adminStream } from './admin';
import { ADMIN_STANDING_STREAM, adminStandingDecider } from './admin-standing';
import { fieldRule } from './admins';
import { fold } from '../shared/domain/decider';
import { oneTimePassword, passwordSchema, PasswordHasher } from '../member';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { handle, loadStream } from '../shared/commands/handle';

/**
 * Disables or enables an administrator. `super_ids` are every super administrator there is: the
 * last enabled one is never disabled (last_super_admin). `by_super`: whether the one who asks is a
 * super administrator; only one addresses a super administrator (super_admin_only).
 */
export async function setAdminEnabled(
  store: EventStore,
  admin: { id: number; is_super: boolean },
  enabled: boolean,
  { super_ids, by_super }: { super_ids: number[]; by_super: boolean },
  ctx: CommandContext,
): Promise<{ position: string | null }> {
  const addressed = { admin_id: admin.id, is_super: admin.is_super, by_super };
  const command = enabled ? ({ type: 'EnableAdmin', data: addressed } as const) : ({ type: 'DisableAdmin', data: { ...addressed, super_ids } } as const);
  return handle(store, ADMIN_STANDING_STREAM, adminStandingDecider, command, ctx);
}

/** Whether this is the administrator's password; a missing one costs a hash too. */
export async function adminPasswordMatches(store: EventStore, hasher: PasswordHasher, username: string, password: string): Promise<boolean> {
  const state = fold(adminDecider, await loadStream<AdminEvent>(store, adminStream(username)));
  return state.status === 'created' ? hasher.verify(state.password_hash, password) : hasher.verifyNothing(password);
}

/** An administrator's own change, the current password checked by the caller (`adminPasswordMatches`). */
export async function changeAdminPassword(
  store: EventStore,
  hasher: PasswordHasher,
  username: string,
  new_password: string,
  ctx: CommandContext,
): Promise<{ position: string | null }> {
  fieldRule(passwordSchema, new_password, 'invalid_password');
  const password_hash = await hasher.hash(new_password);
  return handle(store, adminStream(username), adminDecider, { type: 'ChangeAdminPassword', data: { password_hash } }, ctx);
}

/**
 * Gives an administrator a new one-time password, answered once to whoever reset it; `by_super`:
 * whether that one is a super administrator, the only kind that resets a super one's (super_admin_only).
 */
export async function resetAdminPassword(
  store: EventStore,
  hasher: PasswordHasher,
  username: string,
  by_super: boolean,
  ctx: CommandContext,
): Promise<{ password: string; position: string | null }> {
  const password = oneTimePassword();
  const password_hash = await hasher.hash(password);
  const { position } = await handle(store, adminStream(username), adminDecider, { type: 'ResetAdminPassword', data: { password_hash, by_super } }, ctx);
  return { password, position };
}
