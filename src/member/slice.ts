import { defineEvents, Slice } from '../shared/slice';
import { MEMBER_IDS, sequenceEventSchemas } from '../shared/domain/sequences';
import { accountWording } from './account-events';
import { nameClaimEventSchemas, nameClaimWording } from '../shared/domain/name-claims';
import { MEMBER_NAMES } from './names';
import { memberEventSchemas, memberStream } from './decider';
import { DeveloperDeps, developerEndpoints } from './endpoints';
import { membersProjection } from './projection';

/** How the member's history tells the registration; the password hash is left out by name. */
const registered = {
  describe: (data: Record<string, unknown>) =>
    `registered as member ${String(data.member_id)} with the username ${String(data.username)}`,
};

/** Developer membership: registration, login, the member's dashboard and account, password reset. */
export const memberSlice: Slice<DeveloperDeps> = {
  name: 'member',
  events: defineEvents(
    { ...memberEventSchemas, ...sequenceEventSchemas(MEMBER_IDS), ...nameClaimEventSchemas(MEMBER_NAMES) },
    {},
    { MemberRegistered: registered, ...accountWording, ...nameClaimWording(MEMBER_NAMES, 'the username') },
  ),
  projections: [membersProjection],
  // Registration and every account change, whoever made it: the member, an administrator, the system.
  memberStreams: ({ username }) => [memberStream(username)],
  endpoints: developerEndpoints,
};
