import type { AdminIdentity } from '../shared/http/session';
import { ZodType } from 'zod';
import {
  adminDecider,
  AdminEvent,
  adminStream,
  assertAdminUsernameAvailable,
  assertMayCreate,
  INVITATION_LIFETIME_HOURS,
} from './admin';
import { newLink } from '../shared/mailed-links';
import { DomainError, fold } from '../shared/domain/decider';
import { emailSchema, passwordSchema, usernameSchema, PasswordHasher } from '../member';
import { roleGroupPermissions } from './groups';
import { Grantor } from './grantor';
import { ADMIN_STANDING_STREAM, adminStandingDecider, AdminStandingEvent } from './admin-standing';
import { ADMIN_IDS } from '../shared/domain/sequences';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { AuthenticationFailed } from '../shared/commands/errors';
import { handle, loadStream } from '../shared/commands/handle';
import { allocateId } from '../shared/commands/ids';

export interface NewAdmin {
  username: string;
  password: string;
  is_super: boolean;
  role_id: number | null;
  /** Optional: where the reviewers' digest goes (docs/notifications.md). */
  email?: string | null;
  /** A link to choose their password is to be mailed to `email`: `password` is then one nobody learns. */
  invited?: boolean;
}

/** The member rules for usernames and passwords hold for administrators too. */
export function fieldRule(schema: ZodType, value: unknown, error: string): void {
  const result = schema.safeParse(value);
  if (!result.success) throw new DomainError(error, result.error.issues[0]!.message);
}

function emailOf(value: string): string {
  const result = emailSchema.safeParse(value);
  if (!result.success) throw new DomainError('invalid_email', result.error.issues[0]!.message);
  return result.data as string;
}

/**
 * Creates an administrator: a free username, an existing role group unless super whose permissions
 * `by` holds, a fresh id; invited, the token of their link.
 */
export async function createAdmin(
  store: EventStore,
  hasher: PasswordHasher,
  admin: NewAdmin,
  by: Grantor,
  ctx: CommandContext,
): Promise<AdminIdentity & { position: string; invitation: { token: string; email: string } | null }> {
  fieldRule(usernameSchema, admin.username, 'invalid_username');
  fieldRule(passwordSchema, admin.password, 'invalid_password');
  const email = admin.email ? emailOf(admin.email) : null;
  const stream = adminStream(admin.username);
  assertAdminUsernameAvailable(fold(adminDecider, await loadStream<AdminEvent>(store, stream)), admin.username);
  const permissions = await roleGroupPermissions(store, admin.role_id);
  if (!permissions) throw new DomainError('role_group_not_found', `there is no role group ${admin.role_id}`);
  // Before an id is allocated, as the username is checked: a refusal appends nothing.
  assertMayCreate(admin, permissions, by);
  const password_hash = await hasher.hash(admin.password);
  const admin_id = await allocateId(store, ADMIN_IDS, ctx);
  const profile = {
    admin_id,
    username: admin.username,
    is_super: admin.is_super,
    role_id: admin.role_id,
    password_hash,
    email,
  };
  const mailed = admin.invited && email ? newLink(admin_id, ctx.now, INVITATION_LIFETIME_HOURS * 60) : null;
  const { position } = await handle(
    store,
    stream,
    adminDecider,
    { type: 'CreateAdmin', data: profile, permissions, by, ...(mailed && { invitation: mailed.link }) },
    ctx,
  );
  const invitation = mailed && email ? { token: mailed.token, email } : null;
  return {
    id: admin_id,
    username: admin.username,
    is_super: admin.is_super,
    role_id: admin.role_id,
    position: position!,
    invitation,
  };
}

/** Which administrators are disabled, from the one stream that decides it. */
export async function disabledAdmins(store: EventStore): Promise<number[]> {
  return fold(adminStandingDecider, await loadStream<AdminStandingEvent>(store, ADMIN_STANDING_STREAM)).disabled;
}

/**
 * Checks an administrator's password against the administrator's own stream; members are never
 * looked at. A disabled administrator is told so, but only after the right password: the refusal
 * says nothing about an account to whoever does not know its password.
 */
export async function loginAdmin(
  store: EventStore,
  hasher: PasswordHasher,
  username: string,
  password: string,
): Promise<AdminIdentity> {
  const state = fold(adminDecider, await loadStream<AdminEvent>(store, adminStream(username)));
  const valid =
    state.status === 'created' && state.password_hash !== ''
      ? await hasher.verify(state.password_hash, password)
      : await hasher.verifyNothing(password);
  if (!valid || state.status !== 'created') throw new AuthenticationFailed();
  if ((await disabledAdmins(store)).includes(state.admin_id)) {
    throw new DomainError(
      'admin_disabled',
      'this administrator is disabled: a holder of access.manage can enable it again',
    );
  }
  return { id: state.admin_id, username: state.username, is_super: state.is_super, role_id: state.role_id };
}
