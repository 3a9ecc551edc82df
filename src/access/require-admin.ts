import { Middleware } from 'koa';
import { AppState } from '../shared/http/context';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import { permissionsHeld } from './permissions';
import { RoleGroupDocument } from './projections/groups';

/**
 * An administrator session, and the permission when one is named. Permissions come from the role
 * group as the read model holds it, so disabling a group or changing it takes effect as soon as
 * this process has read the change (docs/application-center.md).
 */
export function requireAdmin(
  permission: string | undefined,
  roleGroup: (id: number | null) => Promise<RoleGroupDocument | null>,
): Middleware<AppState> {
  return async (ctx, next) => {
    const admin = adminOf(ctx);
    if (permission && !admin.is_super) {
      const group = await roleGroup(admin.role_id);
      // Told at each call, as the group is read at each call: no session outlives a disable.
      if (group && !group.enabled) {
        throw new HttpError(403, 'role_group_disabled', `the role group "${group.name}" of this administrator is disabled: a super administrator can enable it again`);
      }
      if (!(permissionsHeld(admin, group) as string[]).includes(permission)) {
        throw new HttpError(403, 'permission_denied', `this administrator lacks the permission ${permission}`);
      }
    }
    await next();
  };
}
