import { defineEvents, Slice } from '../shared/slice';
import { addonEventSchemas } from './decider';
import { ApplicationCenterDeps, applicationCenterEndpoints } from './endpoints/application-center';
import { OpenDeps, openEndpoints } from './endpoints/open';
import { addonsProjection } from './projection';

/** The application center: add-ons installed from the catalogue, and the open API's list of them. */
export const addonSlice: Slice<ApplicationCenterDeps & OpenDeps> = {
  name: 'addon',
  events: defineEvents(addonEventSchemas),
  projections: [addonsProjection],
  endpoints: (deps) => [...applicationCenterEndpoints(deps), ...openEndpoints(deps)],
};
