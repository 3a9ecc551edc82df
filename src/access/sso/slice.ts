import { Slice } from '../../shared/slice';
import { ssoEvents } from './event-definitions';
import { ssoEndpoints, SsoDeps } from './endpoints';

/** Single sign-on for administrators through an OpenID provider: entirely off unless OIDC_ISSUER_URL is set. */
export const ssoSlice: Slice<SsoDeps> = {
  name: 'sso',
  events: ssoEvents,
  projections: [],
  endpoints: ssoEndpoints,
};
