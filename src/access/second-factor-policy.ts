import type { SecondFactorPolicy } from '../config-second-factor';
import { EventStore } from '../stores/ports';
import { roleGroupPermissions } from './groups';

/**
 * Whether REQUIRE_SECOND_FACTOR covers this administrator: every one under `administrators` and
 * `everyone`; under `access-managers`, those who can grant access (a super administrator, or a
 * role group holding an `access.` permission), read from the log as the sign-in reads the password.
 */
export async function adminCoveredBy(
  policy: SecondFactorPolicy,
  store: EventStore,
  admin: { is_super: boolean; role_id: number | null },
): Promise<boolean> {
  if (policy === 'administrators' || policy === 'everyone') return true;
  if (policy === 'none') return false;
  if (admin.is_super) return true;
  const permissions = await roleGroupPermissions(store, admin.role_id);
  return (permissions ?? []).some((permission) => permission.startsWith('access.'));
}
