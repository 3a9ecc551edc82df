import { z } from 'zod';
import { AddonCatalogue } from '../manifest';
import { AddonDocument } from '../projection';
import { ReadModels } from '../../shared/projections/read-models';
import { Endpoint, partnerEndpoint } from '../../shared/http/endpoints';
import { listOf } from '../../shared/http/schemas';
import { accessReads } from '../../access';

const catalogueEntrySchema = z
  .object({ key: z.string(), name: z.string(), version: z.string(), description: z.string(), author: z.string() })
  .meta({ id: 'CatalogueEntry' });

const memberGroupSchema = z.object({ id: z.int().min(1), name: z.string(), description: z.string() }).meta({ id: 'MemberGroup' });

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
    partnerEndpoint({
      path: '/open/addons',
      scope: 'addons.read',
      summary: 'The installed and enabled add-ons',
      response: listOf(catalogueEntrySchema),
      // The list changes only when an add-on is installed, toggled or removed.
      version: () => installedAddons.revision(),
      answer: () => {
        const list = [...catalogue.keys()].flatMap((key) => {
          const addon = installedAddons.lookup(key);
          return addon?.enabled ? [{ key, name: addon.name, version: addon.version, description: addon.description, author: addon.author }] : [];
        });
        return { data: { list } };
      },
    }),
    partnerEndpoint({
      path: '/open/member-groups',
      scope: 'member-groups.read',
      summary: 'The member groups',
      response: listOf(memberGroupSchema),
      answer: async () => {
        const list = (await accessReads(readModels).memberGroups()).map(({ id, name, description }) => ({ id, name, description }));
        return { data: { list } };
      },
    }),
  ];
}
