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
import { fieldError } from '../shared/domain/field-error';
import type { Recorded } from '../shared/domain/events';
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
import { assertNameFree, underClaim } from '../shared/commands/name-claims';
import { ADMIN_NAMES, adminUsernameTaken } from './names';

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

/** The member rules for usernames and passwords hold for administrators too; `field`: the one refused. */
export function fieldRule(schema: ZodType, value: unknown, error: string, field: string): void {
  const result = schema.safeParse(value);
  if (!result.success) throw fieldError(error, field, result.error.issues[0]!.message);
}

function emailOf(value: string): string {
  const result = emailSchema.safeParse(value);
  if (!result.success) throw fieldError('invalid_email', 'email', result.error.issues[0]!.message);
  return result.data as string;
}

/**
 * Creates an administrator: a free username that reads like no other administrator's (./names.ts),
 * an existing role group unless super whose permissions `by` holds, a fresh id; invited, the token of their link.
 */
export async function createAdmin(
  store: EventStore,
  hasher: PasswordHasher,
  admin: NewAdmin,
  by: Grantor,
  ctx: CommandContext,
): Promise<AdminIdentity & { position: string; invitation: { token: string; email: string } | null }> {
  fieldRule(usernameSchema, admin.username, 'invalid_username', 'username');
  fieldRule(passwordSchema, admin.password, 'invalid_password', 'password');
  const email = admin.email ? emailOf(admin.email) : null;
  const stream = adminStream(admin.username);
  assertAdminUsernameAvailable(fold(adminDecider, await loadStream<AdminEvent>(store, stream)), admin.username);
  const refuse = adminUsernameTaken(admin.username);
  await assertNameFree(store, ADMIN_NAMES, { name: admin.username, claimant: stream }, ctx, refuse);
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
  const command = {
    type: 'CreateAdmin' as const,
    data: profile,
    permissions,
    by,
    ...(mailed && { invitation: mailed.link }),
  };
  // The claim of the username's look-alike keys settles a race between names that read alike.
  const { position } = await underClaim(
    store,
    ADMIN_NAMES,
    { name: admin.username, claimant: stream },
    ctx,
    refuse,
    () => handle(store, stream, adminDecider, command, ctx),
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
  const events = await loadStream<AdminEvent>(store, adminStream(username));
  const state = fold(adminDecider, events);
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
  const identity = { id: state.admin_id, username: state.username, is_super: state.is_super, role_id: state.role_id };
  return hasOneTimePassword(events) ? { ...identity, password_change_required: true } : identity;
}

const PASSWORD_SETTERS: readonly string[] = [
  'AdminCreated',
  'AdminPasswordChanged',
  'AdminPasswordReset',
  'AdminInvitationAccepted',
];

/**
 * Whether the administrator's current password is a one-time one: the last event that set it is a
 * reset by another administrator, or the creation by another administrator (POST /administrators
 * answers it once). The seeded `admin` (created by the system with ADMIN_PASSWORD or a generated
 * one) and an invited administrator's own choice are not.
 */
export function hasOneTimePassword(events: readonly Recorded<AdminEvent>[]): boolean {
  const last = events.findLast((e) => PASSWORD_SETTERS.includes(e.type));
  return last?.type === 'AdminPasswordReset' || (last?.type === 'AdminCreated' && last.metadata.actor.kind === 'admin');
}
