/**
 * What an administrator may do (docs/administrators.md): each slice registers the permissions it
 * defines (its slice.ts), and the composition gathers them (REGISTRY.permissions, src/compose.ts).
 * Super administrators hold every one.
 */
interface Holder {
  is_super: boolean;
}

interface GroupOfHolder {
  enabled: boolean;
  permissions: readonly string[];
}

/** Whether an administrator holds a permission now: always when super, else through its role group while enabled. */
export function holdsPermission(admin: Holder, group: GroupOfHolder | null, permission: string): boolean {
  return admin.is_super || (group?.enabled === true && group.permissions.includes(permission));
}

/**
 * The permissions an administrator holds now: every one `registered` when super, else those of the
 * role group, none while the group is disabled (or gone).
 */
export function permissionsHeld(admin: Holder, group: GroupOfHolder | null, registered: readonly string[]): string[] {
  if (admin.is_super) return [...registered];
  return group?.enabled ? [...group.permissions] : [];
}
