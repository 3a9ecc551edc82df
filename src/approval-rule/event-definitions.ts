import { defineEvents } from '../shared/slice';
import { approvalRuleEventSchemas } from './decider';
import { approvalRuleWording } from './wording';

/**
 * The approval-rule slice's events as it registers them (./slice.ts), in a file of their own so
 * that the slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const approvalRuleEvents = defineEvents(approvalRuleEventSchemas, {}, approvalRuleWording);
