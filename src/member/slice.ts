import { defineEvents, Slice } from '../shared/slice';
import { MEMBER_IDS, sequenceEventSchemas } from '../shared/domain/sequences';
import { accountWording } from './account-events';
import { memberEventSchemas } from './decider';
import { DeveloperDeps, developerEndpoints } from './endpoints';
import { membersProjection } from './projection';

/** Developer membership: registration, login, the member's dashboard and account, password reset. */
export const memberSlice: Slice<DeveloperDeps> = {
  name: 'member',
  events: defineEvents({ ...memberEventSchemas, ...sequenceEventSchemas(MEMBER_IDS) }, {}, { MemberRegistered: {}, ...accountWording }),
  projections: [membersProjection],
  endpoints: developerEndpoints,
};
