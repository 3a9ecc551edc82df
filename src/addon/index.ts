import { Slice } from '../shared/slice';
import { ApplicationCenterDeps, applicationCenterEndpoints } from './endpoints/application-center';
import { OpenDeps, openEndpoints } from './endpoints/open';
import { addonsProjection } from './projection';

/** The application center: add-ons installed from the catalogue, and the open API's list of them. */
export const addonSlice: Slice<ApplicationCenterDeps & OpenDeps> = {
  projections: [addonsProjection],
  endpoints: (deps) => [...applicationCenterEndpoints(deps), ...openEndpoints(deps)],
};
