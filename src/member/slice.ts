import { Slice } from '../shared/slice';
import { memberStream } from './decider';
import { secondFactorStream } from './second-factor/decider';
import { memberEvents } from './event-definitions';
import { DeveloperDeps, developerEndpoints } from './endpoints';
import { membersProjection } from './projection';

/** Developer membership: registration, login, the member's dashboard and account, password reset. */
export const memberSlice: Slice<DeveloperDeps> = {
  name: 'member',
  events: memberEvents,
  projections: [membersProjection],
  // Registration and every account change, whoever made it: the member, an administrator, the system.
  memberStreams: ({ id, username }) => [memberStream(username), secondFactorStream({ side: 'member', account_id: id })],
  endpoints: developerEndpoints,
};
