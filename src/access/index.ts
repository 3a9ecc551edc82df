import { Slice } from '../shared/slice';
import { AdminSessionDeps, adminSessionEndpoints } from './endpoints';
import { adminsProjection } from './projections/admins';
import { memberGroupsProjection, roleGroupsProjection } from './projections/groups';

/** Administrators, role groups and member groups: who may do what. */
export const accessSlice: Slice<AdminSessionDeps> = {
  projections: [roleGroupsProjection, memberGroupsProjection, adminsProjection],
  endpoints: adminSessionEndpoints,
};
