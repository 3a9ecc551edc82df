import { ReadModels } from '../../projections/read-models';
import { Endpoint } from '../endpoints';
import { respond } from '../envelope';

/** The open API for partner servers (specification §4.1): API id and key in headers, one scope each. */
export function openEndpoints(readModels: ReadModels): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/open/addons',
      caller: { kind: 'partner', scope: 'addons.read' },
      // The application center, which installs and enables add-ons, is not built yet: nothing is installed.
      handler: (ctx) => respond(ctx, { list: [] }),
    },
    {
      method: 'GET',
      path: '/open/member-groups',
      caller: { kind: 'partner', scope: 'member-groups.read' },
      handler: async (ctx) => {
        const list = (await readModels.memberGroups()).map(({ id, name, description }) => ({ id, name, description }));
        respond(ctx, { list });
      },
    },
  ];
}
