/** What an administrator may do (DESIGN §4). Super administrators hold every one. */
export const PERMISSIONS = ['addon.view', 'addon.manage', 'credential.review', 'audit.read'] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(name: string): name is Permission {
  return (PERMISSIONS as readonly string[]).includes(name);
}
