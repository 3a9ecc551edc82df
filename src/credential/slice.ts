import type { Logger } from 'pino';
import type { Settings } from '../config';
import type { Stores } from '../stores/ports';
import { Slice } from '../shared/slice';
import { credentialStream } from './decider';
import { credentialEvents } from './event-definitions';
import { SCOPE_NAMES } from './scopes';
import { PARTNER_GATE_REFUSALS } from './open-api-refusals';
import { CredentialDeps, developerCredentialEndpoints } from './endpoints/developer-credential';
import { credentialReviewEndpoints } from './endpoints/review';
import { bulkDecisionEndpoints } from './endpoints/decisions';
import { usageEndpoints } from './endpoints/usage';
import { extensionEndpoints } from './endpoints/extension';
import { LeakDeps, leakEndpoints } from './endpoints/leaks';
import { ExpiryWatch } from './expiry-watch';
import { apiIdsProjection } from './projections/api-ids';
import { issuedKeysProjection } from './projections/issued-keys';
import { apiKeysProjection } from './projections/api-keys';
import { credentialsProjection } from './projections/credentials';
import { scopeRequestsProjection } from './projections/scope-requests';

interface WatchDeps {
  settings: Pick<Settings, 'EXPIRY_REMINDER_DAYS'>;
  stores: Stores;
  log: Logger;
}

/** API credentials and their scopes: the member's side, the administrators' review, the key ring's source. */
export const credentialSlice: Slice<CredentialDeps & LeakDeps, WatchDeps> = {
  name: 'credential',
  events: credentialEvents,
  permissions: { 'credential.review': 'Review credential applications and scope requests' },
  scopes: SCOPE_NAMES,
  openApiRefusals: PARTNER_GATE_REFUSALS,
  projections: [
    credentialsProjection,
    scopeRequestsProjection,
    apiKeysProjection,
    apiIdsProjection,
    issuedKeysProjection,
  ],
  memberStreams: ({ id }) => [credentialStream(id)],
  endpoints: (deps) => [
    ...developerCredentialEndpoints(deps),
    ...credentialReviewEndpoints(deps),
    ...bulkDecisionEndpoints(deps),
    ...usageEndpoints(deps),
    ...extensionEndpoints(deps),
    ...leakEndpoints(deps),
  ],
  notifiers: ({ settings, stores, log }) => [
    new ExpiryWatch(stores.events, stores.documents, settings.EXPIRY_REMINDER_DAYS, log.child({ component: 'expiry' })),
  ],
};
