import { z } from 'zod';
import { decideAddon } from '../commands';
import { actionCommand, AddonAction, AddonCommand, AddonEvent, AddonState } from '../decider';
import { AddonCatalogue, AddonManifest } from '../manifest';
import { RoleRef, visiblePages } from '../page-roles';
import { permissionsHeld, roleGroupSchemas } from '../../access';
import { addonDocumentOf, AddonDocument } from '../projection';
import { ReadModels, expectWritten } from '../../shared/projections/read-models';
import { Decision } from '../../shared/commands/handle';
import { EventStore } from '../../stores/ports';
import {
  accessRequestSchema,
  actionRequestSchema,
  addonAccessSchema,
  addonPageAccessSchema,
  addonSchema,
  adminContextSchema,
  savedPageRolesSchema,
} from './schemas';
import { commandContext } from '../../shared/http/command-context';
import { AppContext } from '../../shared/http/context';
import { endpoint, Endpoint, Refusal } from '../../shared/http/endpoints';
import { HttpError } from '../../shared/http/envelope';
import { adminOf } from '../../shared/http/guards';
import { addonActionParams, addonParams } from '../params';
import { concurrentChange } from '../../shared/http/schemas';
import { pageOf, paginate, wholeListQuery } from '../../shared/http/pagination';
import { decideThenRead } from '../../shared/http/read-your-writes';
import { accessReads } from '../../access';
import { addonReads } from '../reads';
import { routeHints } from '../../shared/http/route-hints';

// Where an administrator finds what a refused whitelist may name.
const withRouteHints = routeHints({ list_role_groups: 'GET /roles lists the enabled role groups' });

export interface ApplicationCenterDeps {
  events: EventStore;
  readModels: ReadModels;
  catalogue: AddonCatalogue;
  /** Every permission the slices registered (REGISTRY.permissions): a super administrator holds them all. */
  permissions: readonly string[];
}

const viewAddons = { kind: 'admin', permission: 'addon.view' } as const;
const manageAddons = { kind: 'admin', permission: 'addon.manage' } as const;

const unknownKey: Refusal = {
  status: 404,
  reasons: ['addon_not_found'],
  when: 'no add-on in the catalogue has this key (addon_not_found)',
};

/** An add-on as GET /addons lists it: the catalogue's entry, and how it is installed if it is. */
function addonView(manifest: AddonManifest, doc: AddonDocument | null): z.input<typeof addonSchema> {
  const { key, name, version, description, author } = manifest;
  return {
    key,
    name,
    version,
    description,
    author,
    installed: doc !== null,
    installed_version: doc?.version ?? null,
    enabled: doc?.enabled ?? false,
    show_menu: doc?.show_menu ?? false,
  };
}

const DONE: Record<AddonAction, (doc: AddonDocument | null) => string> = {
  install: (doc) => `installed version ${doc?.version}`,
  reinstall: (doc) => `reinstalled version ${doc?.version}`,
  uninstall: () => 'uninstalled',
  enable: () => 'enabled',
  disable: () => 'disabled: its pages are closed until it is enabled again',
  menu: (doc) => (doc?.show_menu ? 'menu entry shown' : 'menu entry hidden'),
};

/** The application center (docs/application-center.md): add-ons, their actions and page whitelists. */
export function applicationCenterEndpoints(deps: ApplicationCenterDeps): Endpoint[] {
  const { events, catalogue, permissions: registered } = deps;
  const readModels = { ...addonReads(deps.readModels), ...accessReads(deps.readModels) };

  const manifestOf = (key: string): AddonManifest => {
    const manifest = catalogue.get(key);
    if (!manifest)
      throw new HttpError(404, 'addon_not_found', `no add-on has the key ${key}: GET /addons lists the catalogue`);
    return manifest;
  };
  const roleRefs = async (): Promise<RoleRef[]> =>
    (await readModels.roleGroups()).map(({ id, enabled }) => ({ id, enabled }));
  const enabledRoleGroups = async () =>
    (await readModels.roleGroups())
      .filter((g) => g.enabled)
      .map(({ id, name, permissions }) => ({ id, name, permissions }));
  const decide = (ctx: AppContext, command: AddonCommand) => () =>
    withRouteHints(() => decideAddon(events, command, commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id })));
  // The add-on as this decision left it: a write of another administrator right after it may
  // already have moved the read model on, and the answer is about this action.
  const addonAfter = async ({ state }: Decision<AddonEvent, AddonState>) => addonDocumentOf(state);

  return [
    endpoint({
      method: 'GET',
      path: '/context',
      caller: { kind: 'admin' },
      summary: 'The administrator logged in, with the permissions held now, and the enabled role groups',
      response: adminContextSchema(registered),
      handler: async (ctx) => {
        const admin = adminOf(ctx);
        const permissions = permissionsHeld(admin, await readModels.roleGroup(admin.role_id), registered);
        return { data: { account: { ...admin, permissions }, role_groups: await enabledRoleGroups() } };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/roles',
      caller: manageAddons,
      summary: 'The enabled role groups, to name in page whitelists, in the order of their ids',
      query: z.object(wholeListQuery),
      response: pageOf(roleGroupSchemas(registered).roleGroup),
      handler: async (_ctx, { query }) => ({
        data: paginate(await enabledRoleGroups(), (group) => [group.id, ''], query),
      }),
    }),
    endpoint({
      method: 'GET',
      path: '/addons',
      caller: viewAddons,
      summary:
        'The application center: every add-on of the catalogue and how it is installed, in the order of their keys',
      query: z.object(wholeListQuery),
      response: pageOf(addonSchema),
      handler: async (_ctx, { query }) => {
        const installed = new Map((await readModels.addons()).map((doc) => [doc.key, doc]));
        const page = paginate([...catalogue.values()], ({ key }) => [0, key], query);
        return {
          data: {
            list: page.list.map((manifest) => addonView(manifest, installed.get(manifest.key) ?? null)),
            next: page.next,
          },
        };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/addons/:key/pages',
      caller: { kind: 'admin' },
      summary: "The add-on's pages this administrator may open, and whether each may be operated",
      description:
        'Super administrators see every page; others the pages whose view holds their role group. ' +
        'An add-on that is not installed, or is disabled, has no page to open: the list is empty',
      params: addonParams,
      query: z.object(wholeListQuery),
      response: pageOf(addonPageAccessSchema),
      refusals: [unknownKey],
      handler: async (ctx, { params: { key }, query }) => {
        manifestOf(key);
        const doc = await readModels.addon(key);
        if (!doc?.enabled)
          return {
            data: { list: [], next: null },
            message: `add-on ${key} is ${doc ? 'disabled' : 'not installed'}: it has no page to open`,
          };
        const admin = adminOf(ctx);
        const group = await readModels.roleGroup(admin.role_id);
        const viewer = { is_super: admin.is_super, role_id: admin.role_id, role_enabled: group?.enabled ?? false };
        // In the order of the add-on's pages.
        const order = doc.pages.map(({ id }) => id);
        const pages = visiblePages(doc.pages, doc.page_roles, viewer);
        return { data: paginate(pages, ({ id }) => [order.indexOf(id), id], query) };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/addons/:key/access',
      caller: manageAddons,
      summary: "The add-on's pages and its saved page whitelist",
      params: addonParams,
      response: addonAccessSchema,
      refusals: [unknownKey],
      handler: async (_ctx, { params: { key } }) => {
        const manifest = manifestOf(key);
        const doc = await readModels.addon(key);
        return { data: { pages: doc?.pages ?? manifest.pages, page_roles: doc?.page_roles ?? null } };
      },
    }),
    endpoint({
      method: 'PUT',
      path: '/addons/:key/access',
      caller: manageAddons,
      summary: "Replace an installed add-on's page whitelist as a whole",
      params: addonParams,
      body: accessRequestSchema,
      response: savedPageRolesSchema,
      refusals: [
        unknownKey,
        {
          status: 422,
          reasons: ['addon_not_installed', 'invalid_page_roles'],
          when: 'the add-on is not installed (addon_not_installed), or page_roles does not name exactly its pages with enabled role groups (invalid_page_roles)',
        },
        concurrentChange,
      ],
      handler: async (ctx, { params: { key }, body: { page_roles } }) => {
        const manifest = manifestOf(key);
        const doc = await decideThenRead(
          ctx,
          decide(ctx, { type: 'SetPageRoles', data: { key, page_roles, role_groups: await roleRefs() } }),
          addonAfter,
        );
        return { data: { page_roles: expectWritten(doc).page_roles }, message: `${manifest.name}: page roles saved` };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/addons/:key/actions/:action',
      caller: manageAddons,
      summary: 'Install, reinstall, uninstall, enable or disable an add-on, or set its menu entry',
      description:
        'install needs page_roles; reinstall takes the catalogue version and keeps the saved page_roles when none is sent; ' +
        'the other actions refuse page_roles. show_menu is optional: default true for install, reinstall and menu, applied by enable when sent, ignored by disable and uninstall',
      params: addonActionParams,
      body: actionRequestSchema,
      response: addonSchema,
      refusals: [
        unknownKey,
        {
          status: 422,
          reasons: [
            'addon_not_installed',
            'addon_already_installed',
            'addon_already_enabled',
            'addon_already_disabled',
            'page_roles_required',
            'page_roles_not_allowed',
            'invalid_page_roles',
            'page_roles_outdated',
          ],
          when: "the add-on's status does not allow the action, or page_roles breaks the rules; data.error says which",
        },
        concurrentChange,
      ],
      handler: async (ctx, { params: { key, action }, body }) => {
        const manifest = manifestOf(key);
        const roles = action === 'install' || action === 'reinstall' ? await roleRefs() : [];
        const doc = await decideThenRead(ctx, decide(ctx, actionCommand(action, body, manifest, roles)), addonAfter);
        return { data: addonView(manifest, doc), message: `${manifest.name}: ${DONE[action](doc)}` };
      },
    }),
  ];
}
