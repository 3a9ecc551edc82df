/**
 * The scope registry: what a partner's credential may be granted, and the open endpoint each
 * scope opens. Removing a name here needs a new version of the projections that list scopes.
 */
export const SCOPES = {
  'addons.read': 'List the installed and enabled add-ons (GET /open/addons)',
  'member-groups.read': 'List the member groups (GET /open/member-groups)',
} as const;

export type ScopeName = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as ScopeName[];

export function isScope(name: string): name is ScopeName {
  return Object.hasOwn(SCOPES, name);
}
