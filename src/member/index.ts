import { Slice } from '../shared/slice';
import { DeveloperDeps, developerEndpoints } from './endpoints';
import { membersProjection } from './projection';

/** Developer membership: registration, login, the member's dashboard. */
export const memberSlice: Slice<DeveloperDeps> = {
  projections: [membersProjection],
  endpoints: developerEndpoints,
};
