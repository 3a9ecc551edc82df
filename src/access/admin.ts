import { Decider, decideByType, DomainError } from '../shared/domain/decider';
import type { AdminEvent, AdminProfile } from './events';
import { normaliseUsername } from '../member';
import { assertHeldIn, assertMayAddress, assertSuperAdminOnly, Grantor } from './grantor';
import { expired, MailedLink, Outstanding, spendAll } from '../shared/mailed-links';
import type { SsoEvent } from './sso/events';

export type { AdminEvent, AdminProfile } from './events';

/**
 * An administrator. Its own stream per normalised username, apart from members', so the two
 * identities never meet: a member may share an administrator's name and neither logs in as the other.
 */
export const adminStream = (username: string): string => `admin-${normaliseUsername(username)}`;

/** How long a mailed invitation is good for (docs/administrators.md says why 72 hours). */
export const INVITATION_LIFETIME_HOURS = 72;

/** What an administrator's stream holds: its own events, and single sign-on's (./sso/events.ts). */
export type AdminStreamEvent = AdminEvent | SsoEvent;
/**
 * With an invitation, the profile's password is one nobody learns: the mailed link sets theirs.
 * `permissions`: those of the role group it joins, which `by` must hold (none for a super one).
 */
export type CreateAdmin = {
  type: 'CreateAdmin';
  data: AdminProfile;
  invitation?: MailedLink;
  permissions: readonly string[];
  by: Grantor;
};
export type ChangeAdminPassword = { type: 'ChangeAdminPassword'; data: { password_hash: string } };
/** `permissions`: those of the role group of the administrator reset, which `by` must hold (assertMayAddress). */
export type ResetAdminPassword = {
  type: 'ResetAdminPassword';
  data: { password_hash: string };
  permissions: readonly string[];
  by: Grantor;
};
/** `disabled`: as the standing stream says (./admin-standing.ts); a disabled administrator's invitation is refused. */
export type AcceptInvitation = {
  type: 'AcceptAdminInvitation';
  data: { token_digest: string; password_hash: string; now: string; disabled: boolean };
};
export type AdminCommand = CreateAdmin | ChangeAdminPassword | ResetAdminPassword | AcceptInvitation;
/** Invitations by token digest: until when each is good, or spent (any new password spends them all). */
export type AdminState =
  { status: 'none' } | ({ status: 'created'; invitations: Record<string, Outstanding> } & AdminProfile);

/** Only a super administrator creates a super one; another places administrators only in a group whose permissions it holds. */
export function assertMayCreate(
  admin: { is_super: boolean; role_id: number | null },
  permissions: readonly string[],
  by: Grantor,
): void {
  assertSuperAdminOnly(admin, by);
  assertHeldIn(permissions, admin.role_id, by);
}

export function assertAdminUsernameAvailable(state: AdminState, username: string): void {
  if (state.status === 'created') {
    throw new DomainError(
      'admin_username_taken',
      `an administrator "${username}" already exists: choose another username`,
    );
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
    throw new DomainError(
      'invalid_admin_role',
      'an administrator is either super (no role group) or belongs to exactly one role group',
    );
  }
  assertArgon2id(password_hash);
  assertMayCreate(command.data, command.permissions, command.by);
  const invited: AdminEvent[] = command.invitation
    ? [{ type: 'AdminInvited', data: { admin_id, ...command.invitation } }]
    : [];
  return [{ type: 'AdminCreated', data: command.data }, ...invited];
}

function accept(command: AcceptInvitation, state: Created): AdminEvent[] {
  const invitation = state.invitations[command.data.token_digest];
  if (!invitation)
    throw new DomainError(
      'invitation_token_unknown',
      'this invitation link is not one this service mailed: ask an administrator for a new password',
    );
  if (invitation.spent)
    throw new DomainError(
      'invitation_token_spent',
      'this invitation link was already used, or a password was set since it was mailed: sign in, or ask an administrator to reset your password',
    );
  if (expired(invitation, command.data.now))
    throw new DomainError(
      'invitation_token_expired',
      `this invitation link has expired (links are good for ${INVITATION_LIFETIME_HOURS} hours): ask an administrator to reset your password`,
    );
  if (command.data.disabled)
    throw new DomainError(
      'admin_disabled',
      'this administrator is disabled: a holder of access.manage can enable it again',
    );
  return [
    { type: 'AdminInvitationAccepted', data: { admin_id: state.admin_id, password_hash: command.data.password_hash } },
  ];
}

export const adminDecider: Decider<AdminCommand, AdminStreamEvent, AdminState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'AdminCreated') return { status: 'created', ...event.data, invitations: {} };
    if (event.type === 'AdministratorProvisioned') {
      // No password: an administrator single sign-on created signs in through the provider only.
      const { admin_id, username, is_super, role_id } = event.data;
      return {
        status: 'created',
        admin_id,
        username,
        is_super,
        role_id,
        password_hash: '',
        email: null,
        invitations: {},
      };
    }
    if (state.status === 'none') return state;
    if (event.type === 'AdministratorRoleGroupSet') {
      return { ...state, is_super: event.data.is_super, role_id: event.data.role_id };
    }
    if (event.type === 'AdminInvited') {
      return {
        ...state,
        invitations: {
          ...state.invitations,
          [event.data.token_digest]: { expires_at: event.data.expires_at, spent: false },
        },
      };
    }
    return { ...state, password_hash: event.data.password_hash, invitations: spendAll(state.invitations) };
  },

  decide: decideByType<AdminCommand, AdminEvent, AdminState>({
    CreateAdmin: create,
    AcceptAdminInvitation: (command, state) => accept(command, settingPassword(command, state)),
    ChangeAdminPassword: (command, state) => [
      passwordSet('AdminPasswordChanged', command, settingPassword(command, state)),
    ],
    ResetAdminPassword: (command, state) => {
      const admin = settingPassword(command, state);
      assertMayAddress({ ...admin, permissions: command.permissions }, command.by);
      return [passwordSet('AdminPasswordReset', command, admin)];
    },
  }),
};

type Created = Extract<AdminState, { status: 'created' }>;

/** The administrator a new password is for: one that exists, given an argon2id hash. */
function settingPassword(command: { data: { password_hash: string } }, state: AdminState): Created {
  if (state.status === 'none') throw new DomainError('admin_not_found', 'there is no such administrator');
  assertArgon2id(command.data.password_hash);
  return state;
}

const passwordSet = (
  type: 'AdminPasswordChanged' | 'AdminPasswordReset',
  command: { data: { password_hash: string } },
  admin: Created,
): AdminEvent => ({ type, data: { admin_id: admin.admin_id, password_hash: command.data.password_hash } });
