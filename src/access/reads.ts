import { ReadModels } from '../shared/projections/read-models';
import { adminsProjection } from './projections/admins';
import { memberGroupsProjection, RoleGroupDocument, roleGroupsProjection } from './projections/groups';

/** The access slice's reads of its own read models. */
export function accessReads(reads: ReadModels) {
  return {
    admin: (id: number) => reads.now(adminsProjection, String(id)),
    /** The role group as it is now; null for an administrator in none (a super administrator). */
    roleGroup: async (id: number | null): Promise<RoleGroupDocument | null> =>
      id === null ? null : reads.now(roleGroupsProjection, String(id)),
    /** Every role group, enabled or not, as of every event committed before this call. */
    roleGroups: async () => (await reads.allLatest(roleGroupsProjection, {})).sort((a, b) => a.id - b.id),
    memberGroups: () => reads.allNow(memberGroupsProjection, {}),
  };
}
