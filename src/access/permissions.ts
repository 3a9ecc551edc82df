/** What an administrator may do (docs/application-center.md). Super administrators hold every one. */
export const PERMISSIONS = ['addon.view', 'addon.manage', 'credential.review', 'audit.read', 'webhook.manage', 'access.manage'] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** What each permission allows, in words: the console labels its checkboxes with them (GET /permissions). */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  'addon.view': 'See the application center',
  'addon.manage': 'Install, enable and disable add-ons and set their page whitelists',
  'credential.review': 'Review credential applications and scope requests',
  'audit.read': 'Read the audit trail and export it',
  'webhook.manage': "Register and manage the role group's webhooks",
  'access.manage': 'Manage role groups and administrators',
};

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
