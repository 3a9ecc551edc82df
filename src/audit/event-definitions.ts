import { defineEvents } from '../shared/slice';
import { auditEventSchemas, CHECKPOINT_TYPE, KEY_ROTATED_TYPE, LEGACY_CHECKPOINT_TYPE } from './proof/checkpoint';

/** `<name>+<hash>` of a verifier key: what a signature line names. */
const keyHash = (verifierKey: unknown): string => String(verifierKey).split('+').slice(0, 2).join('+');

/**
 * The audit slice's events as it registers them (./slice.ts), in a file of their own so that the
 * slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const auditEvents = defineEvents(
  auditEventSchemas,
  {},
  {
    [CHECKPOINT_TYPE]: {
      describe: (data) => `signed checkpoint over the first ${String(data.size)} events of the log`,
    },
    [LEGACY_CHECKPOINT_TYPE]: {
      describe: (data) =>
        `signed checkpoint ${String(data.number)} over the first ${String(data.count)} events of the log`,
    },
    [KEY_ROTATED_TYPE]: {
      describe: (data) => `rotated the audit signing key from ${keyHash(data.previous)} to ${keyHash(data.next)}`,
    },
  },
);
