import { Slice } from '../shared/slice';
import { addonEvents } from './event-definitions';
import { ApplicationCenterDeps, applicationCenterEndpoints } from './endpoints/application-center';
import { OpenDeps, openEndpoints } from './endpoints/open';
import { addonsProjection } from './projection';

/** The application center: add-ons installed from the catalogue, and the open API's list of them. */
export const addonSlice: Slice<ApplicationCenterDeps & OpenDeps> = {
  name: 'addon',
  events: addonEvents,
  permissions: {
    'addon.view': 'See the application center',
    'addon.manage': 'Install, enable and disable add-ons and set their page whitelists',
  },
  projections: [addonsProjection],
  endpoints: (deps) => [...applicationCenterEndpoints(deps), ...openEndpoints(deps)],
};
