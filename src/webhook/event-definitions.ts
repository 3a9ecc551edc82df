import { defineEvents } from '../shared/slice';
import { webhookEventSchemas } from './decider';

/**
 * The webhook slice's events as it registers them (./slice.ts), in a file of their own so that the
 * slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const webhookEvents = defineEvents(webhookEventSchemas);
