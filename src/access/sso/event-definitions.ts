import { defineEvents } from '../../shared/slice';
import { ssoEventSchemas } from './events';

const where = (data: Record<string, unknown>): string =>
  data.is_super ? 'a super administrator' : `in role group ${String(data.role_id)}`;

/**
 * Single sign-on's events as its slice registers them (./slice.ts), in a file of their own so that
 * the slices' events registry (src/event-registry.ts) reads them without the endpoints.
 */
export const ssoEvents = defineEvents(
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
);
