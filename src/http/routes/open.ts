import { z } from 'zod';
import { ReadModels } from '../../projections/read-models';
import { endpoint, Endpoint } from '../endpoints';
import { listOf } from '../schemas';

const catalogueEntrySchema = z
  .object({ key: z.string(), name: z.string(), version: z.string(), description: z.string(), author: z.string() })
  .meta({ id: 'CatalogueEntry' });

const memberGroupSchema = z.object({ id: z.int().min(1), name: z.string(), description: z.string() }).meta({ id: 'MemberGroup' });

/** The open API for partner servers (specification §4.1): API id and key in headers, one scope each. */
export function openEndpoints(readModels: ReadModels): Endpoint[] {
  return [
    endpoint({
      method: 'GET',
      path: '/open/addons',
      caller: { kind: 'partner', scope: 'addons.read' },
      summary: 'The installed and enabled add-ons',
      response: listOf(catalogueEntrySchema),
      // The application center, which installs and enables add-ons, is not built yet: nothing is installed.
      handler: () => ({ data: { list: [] } }),
    }),
    endpoint({
      method: 'GET',
      path: '/open/member-groups',
      caller: { kind: 'partner', scope: 'member-groups.read' },
      summary: 'The member groups',
      response: listOf(memberGroupSchema),
      handler: async () => {
        const list = (await readModels.memberGroups()).map(({ id, name, description }) => ({ id, name, description }));
        return { data: { list } };
      },
    }),
  ];
}
