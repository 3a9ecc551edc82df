import { ReadModels } from '../shared/projections/read-models';
import { addonsProjection } from './projection';

/** The add-on slice's reads of its own read model, as of every event committed before the call. */
export function addonReads(reads: ReadModels) {
  return {
    /** The installed add-on with this key; null when not installed. */
    addon: (key: string) => reads.latest(addonsProjection, key),
    addons: () => reads.allLatest(addonsProjection, {}),
  };
}
