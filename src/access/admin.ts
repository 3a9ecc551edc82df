import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas, EventUpcasters } from '../shared/domain/events';
import { normaliseUsername } from '../member';

/**
 * An administrator. Its own stream per normalised username, apart from members', so the two
 * identities never meet: a member may share an administrator's name and neither logs in as the other.
 */
export const adminStream = (username: string): string => `admin-${normaliseUsername(username)}`;

const adminProfileSchema = z.object({
  admin_id: z.int().min(1),
  username: z.string(),
  /** Super administrators hold every permission and belong to no role group. */
  is_super: z.boolean(),
  role_id: z.int().min(1).nullable(),
  password_hash: z.string(),
  /** Where the digest of new applications and scope requests goes; null: no mail. */
  email: z.string().nullable(),
});

export type AdminProfile = z.infer<typeof adminProfileSchema>;

const newPasswordSchema = z.object({ admin_id: z.int().min(1), password_hash: z.string() });

export const adminEventSchemas = {
  AdminCreated: adminProfileSchema,
  /** The administrator changed their own password. */
  AdminPasswordChanged: newPasswordSchema,
  /** Another administrator gave them a one-time password. */
  AdminPasswordReset: newPasswordSchema,
} satisfies EventSchemas;

/** AdminCreated v1 had no email: those administrators are mailed nothing. */
export const adminUpcasters: EventUpcasters = { AdminCreated: [(v1) => ({ ...v1, email: null })] };

export type AdminEvent = EventOf<typeof adminEventSchemas>;
export type CreateAdmin = { type: 'CreateAdmin'; data: AdminProfile };
export type SetAdminPassword = { type: 'ChangeAdminPassword' | 'ResetAdminPassword'; data: { password_hash: string } };
export type AdminCommand = CreateAdmin | SetAdminPassword;
export type AdminState = { status: 'none' } | ({ status: 'created' } & AdminProfile);

export function assertAdminUsernameAvailable(state: AdminState, username: string): void {
  if (state.status === 'created') {
    throw new DomainError('admin_username_taken', `an administrator "${username}" already exists: choose another username`);
  }
}

function assertArgon2id(password_hash: string): void {
  if (!password_hash.startsWith('$argon2id$')) {
    throw new DomainError('invalid_password_hash', 'an administrator password is stored as an Argon2id hash only');
  }
}

function create(command: CreateAdmin, state: AdminState): AdminEvent[] {
  const { admin_id, username, is_super, role_id, password_hash } = command.data;
  assertAdminUsernameAvailable(state, username);
  if (!Number.isSafeInteger(admin_id) || admin_id < 1) {
    throw new DomainError('invalid_admin_id', 'administrator ids are positive integers');
  }
  if (is_super === (role_id !== null)) {
    throw new DomainError('invalid_admin_role', 'an administrator is either super (no role group) or belongs to exactly one role group');
  }
  assertArgon2id(password_hash);
  return [{ type: 'AdminCreated', data: command.data }];
}

export const adminDecider: Decider<AdminCommand, AdminEvent, AdminState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'AdminCreated') return { status: 'created', ...event.data };
    return state.status === 'created' ? { ...state, password_hash: event.data.password_hash } : state;
  },

  decide(command, state) {
    if (command.type === 'CreateAdmin') return create(command, state);
    if (state.status === 'none') throw new DomainError('admin_not_found', 'there is no such administrator');
    assertArgon2id(command.data.password_hash);
    const type = command.type === 'ChangeAdminPassword' ? 'AdminPasswordChanged' : 'AdminPasswordReset';
    return [{ type, data: { admin_id: state.admin_id, password_hash: command.data.password_hash } }];
  },
};
