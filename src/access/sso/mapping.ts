import { DomainError } from '../../shared/domain/decider';

/** Where the provider's claims place an administrator: super, or a role group by name. */
export type Placement = { is_super: true } | { is_super: false; role_group: string };

export interface MappingSettings {
  groupsClaim: string;
  /** Claim value to role-group name, in the order OIDC_ROLE_GROUPS lists them: the first that matches wins. */
  roleGroups: ReadonlyArray<readonly [string, string]>;
  superGroup: string | null;
}

/** The claim's values: a list, or one string (some providers send a lone group as a string). */
function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Pure: the placement the claims map to, or a refusal that says which claim and which values were looked at. */
export function placementOf(claims: Record<string, unknown>, settings: MappingSettings): Placement {
  const groups = groupsOf(claims, settings.groupsClaim);
  if (settings.superGroup !== null && groups.includes(settings.superGroup)) return { is_super: true };
  const match = settings.roleGroups.find(([value]) => groups.includes(value));
  if (match) return { is_super: false, role_group: match[1] };
  const known = [...settings.roleGroups.map(([value]) => value), ...(settings.superGroup ? [settings.superGroup] : [])];
  throw new DomainError(
    'sso_not_mapped',
    `your identity provider's "${settings.groupsClaim}" claim (${groups.length ? groups.join(', ') : 'empty'}) names none of the groups this service maps to administrators (${known.join(', ') || 'none'}): ask your administrator to add you to one`,
  );
}

/** The username an administrator gets: the provider's preferred_username, else its subject. */
export function usernameOf(claims: Record<string, unknown>): string {
  const preferred = claims.preferred_username;
  return typeof preferred === 'string' && preferred.length > 0 ? preferred : String(claims.sub);
}
