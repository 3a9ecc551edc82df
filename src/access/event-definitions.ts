import { z } from 'zod';
import { defineEvents } from '../shared/slice';
import { ADMIN_IDS, sequenceEventSchemas } from '../shared/domain/sequences';
import { nameClaimEventSchemas, nameClaimWording } from '../shared/domain/name-claims';
import { ADMIN_NAMES, ROLE_GROUP_NAMES } from './name-spaces';
import { accessLogEventSchemas, adminEventSchemas, adminUpcasters } from './events';
import { adminStandingEventSchemas } from './admin-standing';
import { memberGroupEventSchemas } from './member-group';
import { roleGroupEventSchemas } from './role-group';
import { accessWording } from './wording';

/**
 * The access slice's events as it registers them (./slice.ts), in a file of their own so that the
 * slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const accessEvents = defineEvents(
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
);
