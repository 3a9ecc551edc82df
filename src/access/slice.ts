import { Slice } from '../shared/slice';
import { AdminSessionDeps, accessEndpoints } from './endpoints';
import { adminsProjection } from './projections/admins';
import { memberGroupsProjection, roleGroupsProjection } from './projections/groups';
import { accessEvents } from './event-definitions';

/** Administrators, role groups and member groups: who may do what. */
export const accessSlice: Slice<AdminSessionDeps> = {
  name: 'access',
  events: accessEvents,
  permissions: { 'access.manage': 'Manage role groups and administrators' },
  projections: [roleGroupsProjection, memberGroupsProjection, adminsProjection],
  endpoints: accessEndpoints,
};
