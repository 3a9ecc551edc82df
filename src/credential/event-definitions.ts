import { defineEvents } from '../shared/slice';
import { credentialEventSchemas, credentialUpcasters } from './events';
import { credentialWording } from './wording';

/**
 * The credential slice's events as it registers them (./slice.ts), in a file of their own so that
 * the slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const credentialEvents = defineEvents(credentialEventSchemas, credentialUpcasters, credentialWording);
