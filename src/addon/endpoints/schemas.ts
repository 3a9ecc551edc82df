import { z } from 'zod';
import { addonKeySchema, addonPageSchema } from '../manifest';
import { PageRoles, pageRolesSchema } from '../page-roles';
import { adminIdentitySchema, roleGroupSchemas } from '../../access';
import { oncePerList } from '../../shared/http/schemas';

/** Bodies and answers of the application center (docs/application-center.md). */

/**
 * A whitelist as a request sends it: documented with its schema, but handed to the decider as
 * sent, which checks every page-role rule in one place and answers one reason, invalid_page_roles.
 */
const sentPageRoles = pageRolesSchema.catch(({ value }) => value as PageRoles);

export const accessRequestSchema = z.strictObject({ page_roles: sentPageRoles }).meta({ id: 'AccessRequest' });

export const actionRequestSchema = z
  .strictObject({
    show_menu: z
      .boolean({ error: 'show_menu must be true or false' })
      // Optional, never defaulted here: enable changes the entry only when it is sent (actionCommand).
      .optional()
      .meta({
        description:
          'Whether the add-on has a menu entry. install, reinstall and menu: default true; enable: changes it only when sent; disable and uninstall: ignored',
      }),
    page_roles: sentPageRoles.optional().meta({
      description:
        'Required with install; optional with reinstall, where leaving it out keeps the saved one; refused otherwise',
    }),
  })
  .meta({ id: 'ActionRequest' });

export const addonSchema = z
  .object({
    key: addonKeySchema,
    name: z.string(),
    version: z.string().meta({ description: "The catalogue's version: what install and reinstall put in place" }),
    description: z.string(),
    author: z.string(),
    installed: z.boolean(),
    installed_version: z.string().nullable().meta({ description: 'The version installed; null when not installed' }),
    enabled: z.boolean().meta({ description: 'False when not installed' }),
    show_menu: z.boolean().meta({ description: 'False when not installed' }),
  })
  .meta({ id: 'Addon' });

export const addonPageAccessSchema = addonPageSchema
  .extend({
    can_manage: z.boolean().meta({ description: 'Whether the account may operate the page, not only view it' }),
  })
  .meta({ id: 'AddonPageAccess' });

export const addonAccessSchema = z
  .object({
    pages: z
      .array(addonPageSchema)
      .meta({ description: "The installed version's pages; the catalogue's when not installed" }),
    page_roles: pageRolesSchema.nullable().meta({ description: 'The saved whitelist; null when not installed' }),
  })
  .meta({ id: 'AddonAccess' });

export const savedPageRolesSchema = z.object({ page_roles: pageRolesSchema }).meta({ id: 'SavedPageRoles' });

const adminContextOver = (registered: readonly string[]) => {
  const { permission, roleGroup } = roleGroupSchemas(registered);
  return z
    .object({
      account: adminIdentitySchema.extend({
        permissions: z
          .array(permission)
          .meta({ description: "Every permission for a super administrator; the role group's while it is enabled" }),
      }),
      role_groups: z.array(roleGroup).meta({ description: 'The enabled role groups' }),
    })
    .meta({ id: 'AdminContext' });
};

/** GET /context's answer over the permissions the slices registered. */
export const adminContextSchema = oncePerList(adminContextOver);
