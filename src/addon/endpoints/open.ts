import { z } from 'zod';
import { AddonCatalogue } from '../manifest';
import { AddonDocument } from '../projection';
import { ReadModels } from '../../shared/projections/read-models';
import { Endpoint } from '../../shared/http/endpoints';
import { pagedPartnerEndpoint } from '../../shared/http/paged-partner';
import { accessReads } from '../../access';

// An entry may omit its fields (docs/rules.md, "The open API"): a partner's client must not count on any but the key.
// Described and exemplified for the partners who read the contract (the developer center's reference renders both).
const catalogueEntrySchema = z
  .object({
    key: z.string().meta({ description: "The add-on's key in the catalogue, the same in every version" }),
    name: z.string().optional().meta({ description: 'Its name, as the installed version gives it' }),
    version: z.string().optional().meta({ description: 'The installed version' }),
    description: z.string().optional().meta({ description: 'What it does, in its own words' }),
    author: z.string().optional().meta({ description: 'Who made it' }),
  })
  .meta({
    id: 'CatalogueEntry',
    examples: [
      {
        key: 'helpdesk',
        name: 'Helpdesk',
        version: '1.0.0',
        description: 'Customer support tickets, agent queues and response-time reports.',
        author: 'Acme Support Tools',
      },
    ],
  });

const memberGroupSchema = z
  .object({
    id: z.int().min(1).meta({ description: "The group's id" }),
    name: z.string().meta({ description: 'Its name' }),
    description: z.string().meta({ description: 'What its members have in common' }),
  })
  .meta({
    id: 'MemberGroup',
    examples: [{ id: 1, name: 'Default', description: 'Members not placed in another group' }],
  });

export interface OpenDeps {
  readModels: ReadModels;
  catalogue: AddonCatalogue;
  /**
   * The installed add-ons, from this process's memory: partners call on every page view, so the
   * list costs no store round trip. Only add-ons of the catalogue are looked up.
   */
  installedAddons: { lookup(key: string): AddonDocument | null; revision(): number };
}

/** The open API for partner servers (docs/application-center.md): API id and key in headers, one scope each. */
export function openEndpoints({ readModels, catalogue, installedAddons }: OpenDeps): Endpoint[] {
  return [
    pagedPartnerEndpoint({
      path: '/open/addons',
      scope: 'addons.read',
      summary: 'The installed and enabled add-ons, in the order of their keys',
      item: catalogueEntrySchema,
      keyOf: ({ key }) => [0, key],
      // The list changes only when an add-on is installed, toggled or removed.
      version: () => installedAddons.revision(),
      items: () =>
        [...catalogue.keys()].flatMap((key) => {
          const addon = installedAddons.lookup(key);
          return addon?.enabled
            ? [{ key, name: addon.name, version: addon.version, description: addon.description, author: addon.author }]
            : [];
        }),
    }),
    pagedPartnerEndpoint({
      path: '/open/member-groups',
      scope: 'member-groups.read',
      summary: 'The member groups, in the order of their ids',
      item: memberGroupSchema,
      keyOf: ({ id }) => [id, ''],
      items: async () =>
        (await accessReads(readModels).memberGroups()).map(({ id, name, description }) => ({ id, name, description })),
    }),
  ];
}
