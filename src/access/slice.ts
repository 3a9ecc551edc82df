import { z } from 'zod';
import { defineEvents, Slice } from '../shared/slice';
import { ADMIN_IDS, sequenceEventSchemas } from '../shared/domain/sequences';
import { adminEventSchemas, adminUpcasters } from './admin';
import { memberGroupEventSchemas } from './member-group';
import { roleGroupEventSchemas } from './role-group';
import { PERMISSIONS } from './permissions';
import { AdminSessionDeps, adminSessionEndpoints } from './endpoints';
import { adminsProjection } from './projections/admins';
import { memberGroupsProjection, roleGroupsProjection } from './projections/groups';

/** Administrators, role groups and member groups: who may do what. */
export const accessSlice: Slice<AdminSessionDeps> = {
  name: 'access',
  events: defineEvents(
    {
      ...adminEventSchemas,
      ...roleGroupEventSchemas,
      ...memberGroupEventSchemas,
      ...sequenceEventSchemas(ADMIN_IDS),
      // The marker that first-start seeding finished (./seed.ts); no aggregate folds it.
      PlatformSeeded: z.object({}),
    },
    adminUpcasters,
  ),
  permissions: PERMISSIONS,
  projections: [roleGroupsProjection, memberGroupsProjection, adminsProjection],
  endpoints: adminSessionEndpoints,
};
