import { defineEvents } from '../../shared/slice';
import { passkeyEventSchemas } from './events';

const whose = (data: Record<string, unknown>): string =>
  `${data.side === 'admin' ? 'administrator' : 'member'} ${String(data.account_id)}`;

/**
 * Passkeys' events as their slice registers them (./slice.ts), in a file of their own so that the
 * slices' events registry (src/event-registry.ts) reads them without the endpoints. The actor,
 * shown beside each line, is the account's owner: nobody adds or uses another's passkey.
 */
export const passkeyEvents = defineEvents(
  passkeyEventSchemas,
  {},
  {
    PasskeyAdded: {
      describe: (data) => `added the passkey "${String(data.name)}" to ${whose(data)}`,
    },
    PasskeyRemoved: {
      describe: (data) => `removed the passkey "${String(data.name)}" of ${whose(data)}`,
    },
    PasskeyUsed: {
      describe: (data) =>
        `${data.purpose === 'sign_in' ? 'signed in as' : 'confirmed the sign-in of'} ${whose(data)} with the passkey "${String(data.name)}"`,
    },
  },
);
