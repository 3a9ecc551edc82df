import { defineEvents, Slice } from '../../shared/slice';
import { ssoEventSchemas } from './events';
import { ssoEndpoints, SsoDeps } from './endpoints';

const where = (data: Record<string, unknown>): string =>
  data.is_super ? 'a super administrator' : `in role group ${String(data.role_id)}`;

/** Single sign-on for administrators through an OpenID provider: entirely off unless OIDC_ISSUER_URL is set. */
export const ssoSlice: Slice<SsoDeps> = {
  name: 'sso',
  events: defineEvents(
    ssoEventSchemas,
    {},
    {
      AdministratorProvisioned: {
        describe: (data) =>
          `created the administrator ${String(data.username)} (id ${String(data.admin_id)}) at its first single sign-on through ${String(data.issuer)}, ${where(data)}`,
      },
      AdministratorRoleGroupSet: {
        describe: (data) =>
          `placed administrator ${String(data.admin_id)} ${where(data)}, as the identity provider's groups say at its sign-in`,
      },
    },
  ),
  projections: [],
  endpoints: ssoEndpoints,
};
