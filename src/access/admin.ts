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

export const adminEventSchemas = { AdminCreated: adminProfileSchema } satisfies EventSchemas;

/** AdminCreated v1 had no email: those administrators are mailed nothing. */
export const adminUpcasters: EventUpcasters = { AdminCreated: [(v1) => ({ ...v1, email: null })] };

export type AdminEvent = EventOf<typeof adminEventSchemas>;
export type CreateAdmin = { type: 'CreateAdmin'; data: AdminProfile };
export type AdminState = { status: 'none' } | ({ status: 'created' } & AdminProfile);

export function assertAdminUsernameAvailable(state: AdminState, username: string): void {
  if (state.status === 'created') {
    throw new DomainError('admin_username_taken', `an administrator "${username}" already exists`);
  }
}

export const adminDecider: Decider<CreateAdmin, AdminEvent, AdminState> = {
  initialState: { status: 'none' },

  evolve: (_state, event) => ({ status: 'created', ...event.data }),

  decide(command, state) {
    const { admin_id, username, is_super, role_id, password_hash } = command.data;
    assertAdminUsernameAvailable(state, username);
    if (!Number.isSafeInteger(admin_id) || admin_id < 1) {
      throw new DomainError('invalid_admin_id', 'administrator ids are positive integers');
    }
    if (is_super === (role_id !== null)) {
      throw new DomainError(
        'invalid_admin_role',
        'an administrator is either super (no role group) or belongs to exactly one role group',
      );
    }
    if (!password_hash.startsWith('$argon2id$')) {
      throw new DomainError('invalid_password_hash', 'an administrator is created with an Argon2id hash only');
    }
    return [{ type: 'AdminCreated', data: command.data }];
  },
};
