import { adminDecider, AdminEvent, adminStream } from './admin';
import { ADMIN_STANDING_STREAM, adminStandingDecider } from './admin-standing';
import { fieldRule } from './admins';
import { Addressed, Grantor } from './grantor';
import { roleGroupPermissions } from './groups';
import { fold } from '../shared/domain/decider';
import { oneTimePassword, passwordSchema, PasswordHasher } from '../member';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { handle, loadStream } from '../shared/commands/handle';

/** An administrator as `by` addresses it: with its role group's permissions, read from the group's stream. */
async function addressed(
  store: EventStore,
  admin: { id: number; is_super: boolean; role_id: number | null },
): Promise<Addressed> {
  return {
    admin_id: admin.id,
    is_super: admin.is_super,
    role_id: admin.role_id,
    permissions: (await roleGroupPermissions(store, admin.role_id)) ?? [],
  };
}

/**
 * Disables or enables an administrator, when `by` may address it (assertMayAddress). `super_ids`
 * are every super administrator there is: the last enabled one is never disabled (last_super_admin).
 */
export async function setAdminEnabled(
  store: EventStore,
  admin: { id: number; is_super: boolean; role_id: number | null },
  enabled: boolean,
  { super_ids, by }: { super_ids: number[]; by: Grantor },
  ctx: CommandContext,
): Promise<{ position: string | null }> {
  const data = await addressed(store, admin);
  const command = enabled
    ? ({ type: 'EnableAdmin', data, by } as const)
    : ({ type: 'DisableAdmin', data: { ...data, super_ids }, by } as const);
  return handle(store, ADMIN_STANDING_STREAM, adminStandingDecider, command, ctx);
}

/** Whether this is the administrator's password; a missing one costs a hash too. */
export async function adminPasswordMatches(
  store: EventStore,
  hasher: PasswordHasher,
  username: string,
  password: string,
): Promise<boolean> {
  const state = fold(adminDecider, await loadStream<AdminEvent>(store, adminStream(username)));
  // An administrator single sign-on created has no password ('' : ./sso), so none matches.
  return state.status === 'created' && state.password_hash !== ''
    ? hasher.verify(state.password_hash, password)
    : hasher.verifyNothing(password);
}

/** An administrator's own change, the current password checked by the caller (`adminPasswordMatches`). */
export async function changeAdminPassword(
  store: EventStore,
  hasher: PasswordHasher,
  username: string,
  new_password: string,
  ctx: CommandContext,
): Promise<{ position: string | null }> {
  fieldRule(passwordSchema, new_password, 'invalid_password', 'new_password');
  const password_hash = await hasher.hash(new_password);
  return handle(
    store,
    adminStream(username),
    adminDecider,
    { type: 'ChangeAdminPassword', data: { password_hash } },
    ctx,
  );
}

/** Gives an administrator a new one-time password, answered once to `by`, when it may address them (assertMayAddress). */
export async function resetAdminPassword(
  store: EventStore,
  hasher: PasswordHasher,
  admin: { username: string; role_id: number | null },
  by: Grantor,
  ctx: CommandContext,
): Promise<{ password: string; position: string | null }> {
  const password = oneTimePassword();
  const password_hash = await hasher.hash(password);
  const permissions = (await roleGroupPermissions(store, admin.role_id)) ?? [];
  const command = { type: 'ResetAdminPassword', data: { password_hash }, permissions, by } as const;
  const { position } = await handle(store, adminStream(admin.username), adminDecider, command, ctx);
  return { password, position };
}
