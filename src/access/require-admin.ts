import { Middleware } from 'koa';
import { AppState } from '../shared/http/context';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import { holdsPermission } from './permissions';
import { AdminDocument } from './projections/admins';
import { RoleGroupDocument } from './projections/groups';

export interface AdminStandingReads {
  admin(id: number): Promise<AdminDocument | null>;
  roleGroup(id: number | null): Promise<RoleGroupDocument | null>;
}

/**
 * An administrator session of an enabled administrator, and the permission when one is named.
 * The administrator and the role group are read from the read models at each call, so disabling
 * either takes effect as soon as this process has read the change (docs/administrators.md); the
 * sessions a disable ends are the other half of it.
 */
export function requireAdmin(permission: string | undefined, reads: AdminStandingReads): Middleware<AppState> {
  return async (ctx, next) => {
    const admin = adminOf(ctx);
    const checksGroup = Boolean(permission) && !admin.is_super;
    // Both read at once: on MongoDB each is a round trip, on every administrator request.
    const [standing, group] = await Promise.all([
      reads.admin(admin.id),
      checksGroup ? reads.roleGroup(admin.role_id) : null,
    ]);
    // A document not projected yet is an administrator created a moment ago: enabled.
    if (standing?.enabled === false) {
      throw new HttpError(
        401,
        'admin_disabled',
        'this administrator was disabled: a holder of access.manage can enable it again',
      );
    }
    if (permission && checksGroup) {
      // Told at each call, as the group is read at each call: no session outlives a disable.
      if (group && !group.enabled) {
        throw new HttpError(
          403,
          'role_group_disabled',
          `the role group "${group.name}" of this administrator is disabled: a super administrator can enable it again`,
        );
      }
      if (!holdsPermission(admin, group, permission)) {
        throw new HttpError(403, 'permission_denied', `this administrator lacks the permission ${permission}`);
      }
    }
    await next();
  };
}
