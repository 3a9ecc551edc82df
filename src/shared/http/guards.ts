import { Middleware } from 'koa';
import type { AdminIdentity } from '../../access/admins';
import { Permission, permissionsHeld } from '../../access/permissions';
import { RoleGroupDocument } from '../../access/projections/groups';
import { AppContext, AppState } from './context';
import { HttpError } from './envelope';
import { MemberIdentity, sessionOf } from './session';

export function memberOf(ctx: AppContext): MemberIdentity {
  const member = sessionOf(ctx).member;
  if (!member) throw new HttpError(401, 'not_logged_in', 'log in as a developer member first (POST /developer/login)');
  return member;
}

export function adminOf(ctx: AppContext): AdminIdentity {
  const admin = sessionOf(ctx).admin;
  if (!admin) throw new HttpError(401, 'admin_not_logged_in', 'log in as an administrator first (POST /admin/login)');
  return admin;
}

export const requireMember: Middleware<AppState> = async (ctx, next) => {
  memberOf(ctx);
  await next();
};

/**
 * An administrator session, and the permission when one is named. Permissions come from the
 * role group as it is now, so disabling a group or changing it takes effect on the next request.
 */
export function requireAdmin(
  permission: Permission | undefined,
  roleGroup: (id: number | null) => Promise<RoleGroupDocument | null>,
): Middleware<AppState> {
  return async (ctx, next) => {
    const admin = adminOf(ctx);
    if (permission && !admin.is_super) {
      if (!permissionsHeld(admin, await roleGroup(admin.role_id)).includes(permission)) {
        throw new HttpError(403, 'permission_denied', `this administrator lacks the permission ${permission}`);
      }
    }
    await next();
  };
}
