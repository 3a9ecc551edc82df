import { Endpoint } from './http/endpoints';
import { Projection } from './projections/projection';

/** What a slice gives the composition root: its read models, and its endpoints given what they need. */
export interface Slice<Deps> {
  projections: Projection[];
  endpoints(deps: Deps): Endpoint[];
}
