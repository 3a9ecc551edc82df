/** What an administrator may do (docs/application-center.md). Super administrators hold every one. */
export const PERMISSIONS = ['addon.view', 'addon.manage', 'credential.review', 'audit.read', 'webhook.manage'] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * The permissions an administrator holds now: every one when super, else those of the role group,
 * none while the group is disabled (or gone).
 */
export function permissionsHeld(admin: { is_super: boolean }, group: { enabled: boolean; permissions: Permission[] } | null): Permission[] {
  if (admin.is_super) return [...PERMISSIONS];
  return group?.enabled ? group.permissions : [];
}

export function isPermission(name: string): name is Permission {
  return (PERMISSIONS as readonly string[]).includes(name);
}
