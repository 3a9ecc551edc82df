import { Slice } from '../../shared/slice';
import { passkeyEvents } from './event-definitions';
import { passkeysStream } from './decider';
import { enrolmentEndpoints } from './enrolment-endpoints';
import { passkeySignInEndpoints, PasskeySignInDeps } from './sign-in-endpoints';
import { secondFactorEndpoints } from './second-factor-endpoints';

/** Passkeys (WebAuthn) of members and administrators: added and removed by their owners, and an administrator's sign-in of its own. */
export const passkeysSlice: Slice<PasskeySignInDeps> = {
  name: 'passkeys',
  events: passkeyEvents,
  projections: [],
  memberStreams: ({ id }) => [passkeysStream('member', id)],
  endpoints: (deps) => [
    ...enrolmentEndpoints(deps, 'member'),
    ...enrolmentEndpoints(deps, 'admin'),
    ...passkeySignInEndpoints(deps),
    ...secondFactorEndpoints(deps, 'member'),
    ...secondFactorEndpoints(deps, 'admin'),
  ],
};
