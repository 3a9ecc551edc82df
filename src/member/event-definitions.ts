import { defineEvents } from '../shared/slice';
import { MEMBER_IDS, sequenceEventSchemas } from '../shared/domain/sequences';
import { accountWording } from './account-events';
import { memberEventSchemas } from './decider';
import { nameClaimEventSchemas, nameClaimWording } from '../shared/domain/name-claims';
import { MEMBER_NAMES } from './names';
import { secondFactorEventSchemas } from './second-factor/events';
import { secondFactorWording } from './second-factor/event-definitions';

/** How the member's history tells the registration; the password hash is left out by name. */
const registered = {
  describe: (data: Record<string, unknown>) =>
    `registered as member ${String(data.member_id)} with the username ${String(data.username)}`,
};

/**
 * The member slice's events as it registers them (./slice.ts), in a file of their own so that the
 * slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const memberEvents = defineEvents(
  {
    ...memberEventSchemas,
    ...sequenceEventSchemas(MEMBER_IDS),
    ...nameClaimEventSchemas(MEMBER_NAMES),
    ...secondFactorEventSchemas,
  },
  {},
  {
    MemberRegistered: registered,
    ...accountWording,
    ...nameClaimWording(MEMBER_NAMES, 'the username'),
    ...secondFactorWording,
  },
);
