import type { EventDefinition } from '../shared/slice';
import type { AdminEvent } from './admin';
import type { AdminStandingEvent } from './admin-standing';
import type { AccessLogEvent } from './access-log';
import type { RoleGroupEvent } from './role-group';

type Wording = Omit<EventDefinition, 'schema' | 'upcasters'>;

const permissionsOf = (data: Record<string, unknown>): string => {
  const list = Array.isArray(data.permissions) ? data.permissions.map(String) : [];
  return list.length === 0 ? 'no permissions' : `the permissions ${list.join(', ')}`;
};

/**
 * How the audit trail words who may do what: the export and the console's timeline read it, each
 * line beside its actor. No password or hash is ever told, only that one was set.
 */
export const accessWording: Record<
  AdminEvent['type'] | AdminStandingEvent['type'] | AccessLogEvent['type'] | RoleGroupEvent['type'],
  Wording
> = {
  AdminCreated: {
    describe: (data) =>
      `created the administrator ${String(data.username)} (id ${String(data.admin_id)}), ${data.is_super ? 'super administrator' : `in role group ${String(data.role_id)}`}`,
  },
  AdminPasswordChanged: { describe: (data) => `administrator ${String(data.admin_id)} changed their own password` },
  AdminPasswordReset: {
    describe: (data) => `reset the password of administrator ${String(data.admin_id)} to a one-time password`,
  },
  AdminInvited: {
    describe: (data) =>
      `mailed administrator ${String(data.admin_id)} an invitation to choose their password, good until ${String(data.expires_at)}`,
  },
  AdminInvitationAccepted: {
    describe: (data) => `administrator ${String(data.admin_id)} chose their password through their invitation link`,
  },
  AdminDisabled: {
    describe: (data) => `disabled administrator ${String(data.admin_id)}: refused at login, every session ended`,
  },
  AdminEnabled: { describe: (data) => `enabled administrator ${String(data.admin_id)} again` },
  AdministratorSignedIn: {
    describe: (data) => `administrator ${String(data.admin_id)} signed in from ${String(data.address)}`,
  },
  AdministratorSignInFailed: {
    describe: (data) =>
      `${String(data.count)} failed sign-in${data.count === 1 ? '' : 's'} as the administrator "${String(data.username)}" from ${String(data.address)} in the minute from ${String(data.minute)}`,
  },
  AdministratorSignedOut: {
    describe: (data) =>
      data.reason === 'disabled'
        ? `ended ${String(data.sessions)} session${data.sessions === 1 ? '' : 's'} of administrator ${String(data.admin_id)}, disabled`
        : `administrator ${String(data.admin_id)} signed out`,
  },
  RoleGroupDefined: {
    describe: (data) =>
      `defined the role group ${String(data.role_id)} "${String(data.name)}" with ${permissionsOf(data)}`,
  },
  RoleGroupEnabled: {
    describe: (data) => `enabled role group ${String(data.role_id)}: its administrators hold its permissions again`,
  },
  RoleGroupDisabled: {
    describe: (data) => `disabled role group ${String(data.role_id)}: its administrators lost its permissions`,
  },
};
