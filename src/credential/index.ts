import { Slice } from '../shared/slice';
import { CredentialDeps, developerCredentialEndpoints } from './endpoints/developer-credential';
import { credentialReviewEndpoints } from './endpoints/review';
import { usageEndpoints } from './endpoints/usage';
import { extensionEndpoints } from './endpoints/extension';
import { apiIdsProjection } from './projections/api-ids';
import { apiKeysProjection } from './projections/api-keys';
import { credentialsProjection } from './projections/credentials';
import { scopeRequestsProjection } from './projections/scope-requests';

/** API credentials and their scopes: the member's side, the administrators' review, the key ring's source. */
export const credentialSlice: Slice<CredentialDeps> = {
  projections: [credentialsProjection, scopeRequestsProjection, apiKeysProjection, apiIdsProjection],
  endpoints: (deps) => [...developerCredentialEndpoints(deps), ...credentialReviewEndpoints(deps), ...usageEndpoints(deps), ...extensionEndpoints(deps)],
};
