import { DomainError } from '../shared/domain/decider';

/**
 * Who asks for a change of access (docs/administrators.md, "No escalation"): an administrator with
 * the permissions it holds now, or a super one (the shell for the CLI) who holds them all. The
 * commands carry it, so that the deciders judge it without reading anything.
 */
export type Grantor =
  | { admin_id: number | null; is_super: true }
  /** `role_id`: its own group; `scoped`: the permissions held there only (Registry.roleGroupScoped). */
  | { admin_id: number; is_super: false; holds: readonly string[]; role_id: number | null; scoped: readonly string[] };

/** The shell: `platform` commands run by whoever operates the service, as a super administrator. */
export const SHELL: Grantor = { admin_id: null, is_super: true };

/**
 * Kubernetes RBAC's escalation rule: one grants, or lets another use, only permissions it holds
 * itself. Without it a holder of access.manage amounts to every permission: it defines a group
 * with all of them and an administrator in it, or resets a stronger one's password.
 */
export function assertHeld(permissions: readonly string[], by: Grantor): void {
  if (by.is_super) return;
  const missing = permissions.filter((p) => !by.holds.includes(p));
  if (missing.length > 0) {
    throw new DomainError(
      'permission_not_held',
      `you do not hold the permission ${missing.join(', ')}: only an administrator holding it (or a super one) may grant it or act on one who holds it`,
    );
  }
}

/**
 * assertHeld for an administrator of role group `role_id`: a permission that reaches only what a
 * group owns (webhook.manage) is held in one's own group only, as Kubernetes holds a namespaced
 * permission in its namespace; otherwise an administrator placed in, or reset in, another group
 * would hand over that group's webhooks.
 */
export function assertHeldIn(permissions: readonly string[], role_id: number | null, by: Grantor): void {
  assertHeld(permissions, by);
  if (by.is_super || role_id === by.role_id) return;
  const owned = permissions.filter((p) => by.scoped.includes(p));
  if (owned.length > 0) {
    throw new DomainError(
      'permission_not_held',
      `you hold ${owned.join(', ')} for your own role group only, and this administrator is in role group ${role_id}: ask a super administrator`,
    );
  }
}

/**
 * Only a super administrator creates, disables, enables or resets the password of a super one:
 * a holder of access.manage in a role group would otherwise take over an account that holds every
 * permission, or lock it out.
 */
export function assertSuperAdminOnly(target: { is_super: boolean }, by: Grantor): void {
  if (target.is_super && !by.is_super) {
    throw new DomainError(
      'super_admin_only',
      'only a super administrator may create, disable, enable or reset the password of a super administrator: ask one',
    );
  }
}

/**
 * An administrator addressed by another: `permissions` are those of its role group, enabled or
 * not (a disabled group is enabled again with them).
 */
export interface Addressed {
  admin_id: number;
  is_super: boolean;
  role_id: number | null;
  permissions: readonly string[];
}

/**
 * Whether `by` may disable, enable or reset `target`: never itself (a disable would end its own
 * session, a reset would skip asking for the current password: POST /admin/password asks), never a
 * super administrator unless super, and only one whose permissions it holds.
 */
export function assertMayAddress(target: Addressed, by: Grantor): void {
  if (target.admin_id === by.admin_id) {
    throw new DomainError(
      'own_account',
      'you cannot disable, enable or reset your own account here: another administrator can, and your own password is changed with POST /admin/password',
    );
  }
  assertSuperAdminOnly(target, by);
  assertHeldIn(target.permissions, target.role_id, by);
}
