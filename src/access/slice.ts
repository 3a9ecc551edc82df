import { z } from 'zod';
import { defineEvents, Slice } from '../shared/slice';
import { ADMIN_IDS, sequenceEventSchemas } from '../shared/domain/sequences';
import { nameClaimEventSchemas, nameClaimWording } from '../shared/domain/name-claims';
import { ADMIN_NAMES, ROLE_GROUP_NAMES } from './names';
import { adminEventSchemas, adminUpcasters } from './admin';
import { adminStandingEventSchemas } from './admin-standing';
import { accessLogEventSchemas } from './access-log';
import { memberGroupEventSchemas } from './member-group';
import { roleGroupEventSchemas } from './role-group';
import { AdminSessionDeps, accessEndpoints } from './endpoints';
import { adminsProjection } from './projections/admins';
import { memberGroupsProjection, roleGroupsProjection } from './projections/groups';
import { accessWording } from './wording';

/** Administrators, role groups and member groups: who may do what. */
export const accessSlice: Slice<AdminSessionDeps> = {
  name: 'access',
  events: defineEvents(
    {
      ...adminEventSchemas,
      ...adminStandingEventSchemas,
      ...accessLogEventSchemas,
      ...roleGroupEventSchemas,
      ...memberGroupEventSchemas,
      ...sequenceEventSchemas(ADMIN_IDS),
      ...nameClaimEventSchemas(ADMIN_NAMES),
      ...nameClaimEventSchemas(ROLE_GROUP_NAMES),
      // The marker that first-start seeding finished (./seed.ts); no aggregate folds it.
      PlatformSeeded: z.object({}),
    },
    adminUpcasters,
    {
      ...accessWording,
      ...nameClaimWording(ADMIN_NAMES, "the administrator's username"),
      ...nameClaimWording(ROLE_GROUP_NAMES, 'the role-group name'),
    },
  ),
  permissions: { 'access.manage': 'Manage role groups and administrators' },
  projections: [roleGroupsProjection, memberGroupsProjection, adminsProjection],
  endpoints: accessEndpoints,
};
