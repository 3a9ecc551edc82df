import { z } from 'zod';
import { AddonManifest, AddonPage } from './manifest';
import { Decider, decideByType, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas } from '../shared/domain/events';
import { checkPageRoles, pageRolesCovering, pageRolesFor, PageRoles, RoleRef } from './page-roles';

/**
 * An add-on in the application center: one stream per key (docs/application-center.md).
 *
 *   not installed → installed, enabled (install: page_roles required, show_menu default true)
 *   installed (enabled or disabled) → enable / disable / menu / page roles / reinstall
 *   installed → not installed (uninstall; installing again starts afresh)
 *
 * Install and reinstall record the manifest they installed, so the installed version's pages and
 * texts stay known after the operator ships a newer manifest. An action the state does not allow
 * is refused and appends nothing.
 */
export const addonStream = (key: string): string => `addon-${key}`;

export const ADDON_ACTIONS = ['install', 'reinstall', 'uninstall', 'enable', 'disable', 'menu'] as const;

export type AddonAction = (typeof ADDON_ACTIONS)[number];

// Plain shapes, not the manifest's and the whitelist's rules: a rule tightened later must not
// make the streams of add-ons installed under the old one unreadable.
const storedPages = z.array(z.object({ id: z.string(), title: z.string() }));
const storedPageRoles = z.record(z.string(), z.object({ view: z.array(z.int()), manage: z.array(z.int()) }));
const release = {
  key: z.string(),
  version: z.string(),
  name: z.string(),
  description: z.string(),
  author: z.string(),
  pages: storedPages,
};
const key = { key: z.string() };

export const addonEventSchemas = {
  AddonInstalled: z.object({ ...release, page_roles: storedPageRoles, show_menu: z.boolean() }),
  AddonReinstalled: z.object({
    ...release,
    previous_version: z.string(),
    page_roles: storedPageRoles,
    show_menu: z.boolean(),
  }),
  AddonUninstalled: z.object(key),
  AddonEnabled: z.object(key),
  AddonDisabled: z.object(key),
  MenuSet: z.object({ ...key, show_menu: z.boolean() }),
  PageRolesSet: z.object({ ...key, page_roles: storedPageRoles }),
} satisfies EventSchemas;

export type AddonEvent = EventOf<typeof addonEventSchemas>;

/** What an install put in place: the manifest of the installed version. */
export type AddonRelease = AddonManifest;

type Cmd<Type extends string, Data = object> = { type: Type; data: { key: string } & Data };

/**
 * Commands carry the manifest and the role groups they are checked against, so decide stays pure;
 * and the whitelist as it was sent, since the decider is where every page-role rule is checked.
 */
export type AddonCommand =
  | Cmd<'InstallAddon', { manifest: AddonManifest; page_roles: unknown; show_menu: boolean; role_groups: RoleRef[] }>
  | Cmd<'ReinstallAddon', { manifest: AddonManifest; page_roles?: unknown; show_menu: boolean; role_groups: RoleRef[] }>
  | Cmd<'UninstallAddon'>
  | Cmd<'EnableAddon', { show_menu?: boolean }>
  | Cmd<'DisableAddon'>
  | Cmd<'SetMenu', { show_menu: boolean }>
  | Cmd<'SetPageRoles', { page_roles: unknown; role_groups: RoleRef[] }>;

export type AddonState =
  | { status: 'not_installed' }
  | { status: 'installed'; release: AddonRelease; enabled: boolean; show_menu: boolean; page_roles: PageRoles };

type Installed = Extract<AddonState, { status: 'installed' }>;

// Only the release: the data of install and reinstall events carries the whitelist and menu beside it.
const releaseOf = (data: AddonRelease): AddonRelease => ({
  key: data.key,
  version: data.version,
  name: data.name,
  description: data.description,
  author: data.author,
  pages: data.pages.map(({ id, title }) => ({ id, title })),
});

function evolve(state: AddonState, event: AddonEvent): AddonState {
  switch (event.type) {
    case 'AddonInstalled':
      return {
        status: 'installed',
        release: releaseOf(event.data),
        enabled: true,
        show_menu: event.data.show_menu,
        page_roles: event.data.page_roles,
      };
    case 'AddonUninstalled':
      return { status: 'not_installed' };
    default:
      if (state.status !== 'installed') return state;
  }
  switch (event.type) {
    case 'AddonReinstalled':
      return {
        ...state,
        release: releaseOf(event.data),
        show_menu: event.data.show_menu,
        page_roles: event.data.page_roles,
      };
    case 'AddonEnabled':
      return { ...state, enabled: true };
    case 'AddonDisabled':
      return { ...state, enabled: false };
    case 'MenuSet':
      return { ...state, show_menu: event.data.show_menu };
    case 'PageRolesSet':
      return { ...state, page_roles: event.data.page_roles };
  }
}

function requireInstalled(state: AddonState, key: string, action: string): Installed {
  if (state.status !== 'installed') {
    throw new DomainError(
      'addon_not_installed',
      `cannot ${action} add-on ${key}: it is not installed; install it first`,
    );
  }
  return state;
}

/** A new whitelist: exactly the pages, role groups that exist and are enabled. */
const newPageRoles = (roles: unknown, pages: readonly AddonPage[], groups: readonly RoleRef[], key: string) =>
  checkPageRoles(
    pageRolesFor(pages, groups),
    roles,
    'invalid_page_roles',
    `page_roles do not fit add-on ${key}`,
    'list_role_groups',
  );

/**
 * The whitelist a reinstall keeps when none is sent: it must still name exactly the new version's
 * pages. Its role groups are not checked again: one disabled since opens no page anyway, and must
 * not hold an upgrade back.
 */
const keptPageRoles = (state: Installed, manifest: AddonManifest) =>
  checkPageRoles(
    pageRolesCovering(manifest.pages),
    state.page_roles,
    'page_roles_outdated',
    `the saved page_roles do not fit version ${manifest.version} of ${manifest.key} (send page_roles with the reinstall)`,
  );

type Command<Type extends AddonCommand['type']> = Extract<AddonCommand, { type: Type }>;

function install({ data }: Command<'InstallAddon'>, state: AddonState): AddonEvent[] {
  if (state.status === 'installed') {
    throw new DomainError(
      'addon_already_installed',
      `add-on ${data.key} is already installed (version ${state.release.version}): reinstall it instead`,
    );
  }
  const page_roles = newPageRoles(data.page_roles, data.manifest.pages, data.role_groups, data.key);
  return [{ type: 'AddonInstalled', data: { ...releaseOf(data.manifest), page_roles, show_menu: data.show_menu } }];
}

function reinstall({ data }: Command<'ReinstallAddon'>, state: AddonState): AddonEvent[] {
  const installed = requireInstalled(state, data.key, 'reinstall');
  const { manifest, show_menu } = data;
  const page_roles =
    data.page_roles !== undefined
      ? newPageRoles(data.page_roles, manifest.pages, data.role_groups, data.key)
      : keptPageRoles(installed, manifest);
  return [
    {
      type: 'AddonReinstalled',
      data: { ...releaseOf(manifest), previous_version: installed.release.version, page_roles, show_menu },
    },
  ];
}

function uninstall({ data: { key } }: Command<'UninstallAddon'>, state: AddonState): AddonEvent[] {
  requireInstalled(state, key, 'uninstall');
  return [{ type: 'AddonUninstalled', data: { key } }];
}

function enable({ data: { key, show_menu } }: Command<'EnableAddon'>, state: AddonState): AddonEvent[] {
  if (requireInstalled(state, key, 'enable').enabled)
    throw new DomainError('addon_already_enabled', `add-on ${key} is already enabled`);
  // Enable changes the menu entry only when told to.
  const menu = show_menu === undefined ? [] : [{ type: 'MenuSet' as const, data: { key, show_menu } }];
  return [{ type: 'AddonEnabled', data: { key } }, ...menu];
}

function disable({ data: { key } }: Command<'DisableAddon'>, state: AddonState): AddonEvent[] {
  if (!requireInstalled(state, key, 'disable').enabled)
    throw new DomainError('addon_already_disabled', `add-on ${key} is already disabled`);
  return [{ type: 'AddonDisabled', data: { key } }];
}

function setMenu({ data: { key, show_menu } }: Command<'SetMenu'>, state: AddonState): AddonEvent[] {
  requireInstalled(state, key, 'set the menu entry of');
  return [{ type: 'MenuSet', data: { key, show_menu } }];
}

function setPageRoles({ data }: Command<'SetPageRoles'>, state: AddonState): AddonEvent[] {
  const installed = requireInstalled(state, data.key, 'set the page roles of');
  const page_roles = newPageRoles(data.page_roles, installed.release.pages, data.role_groups, data.key);
  return [{ type: 'PageRolesSet', data: { key: data.key, page_roles } }];
}

const decide = decideByType<AddonCommand, AddonEvent, AddonState>({
  InstallAddon: install,
  ReinstallAddon: reinstall,
  UninstallAddon: uninstall,
  EnableAddon: enable,
  DisableAddon: disable,
  SetMenu: setMenu,
  SetPageRoles: setPageRoles,
});

export const addonDecider: Decider<AddonCommand, AddonEvent, AddonState> = {
  initialState: { status: 'not_installed' },
  evolve,
  decide,
};

/** The body of POST /addons/{key}/actions/{action} (docs/application-center.md), parsed. */
export interface ActionRequest {
  show_menu?: boolean;
  page_roles?: unknown;
}

/**
 * The command an action asks for (docs/application-center.md): install needs page_roles, reinstall
 * may send them, every other action must not. show_menu counts for install, reinstall, enable and
 * menu; disable and uninstall, which leave no menu entry to show, ignore it.
 */
export function actionCommand(
  action: AddonAction,
  request: ActionRequest,
  manifest: AddonManifest,
  role_groups: RoleRef[],
): AddonCommand {
  const { key } = manifest;
  const { page_roles } = request;
  // Install, reinstall and menu show the entry unless told otherwise.
  const show_menu = request.show_menu ?? true;
  assertPageRolesFit(action, page_roles, manifest);
  switch (action) {
    case 'install':
      return { type: 'InstallAddon', data: { key, manifest, page_roles, show_menu, role_groups } };
    case 'reinstall':
      return {
        type: 'ReinstallAddon',
        data: { key, manifest, show_menu, role_groups, ...(page_roles !== undefined ? { page_roles } : {}) },
      };
    case 'uninstall':
      return { type: 'UninstallAddon', data: { key } };
    case 'enable':
      return {
        type: 'EnableAddon',
        data: { key, ...(request.show_menu !== undefined && { show_menu: request.show_menu }) },
      };
    case 'disable':
      return { type: 'DisableAddon', data: { key } };
    case 'menu':
      return { type: 'SetMenu', data: { key, show_menu } };
  }
}

/** Install needs page_roles, reinstall may send them, every other action must not. */
function assertPageRolesFit(action: AddonAction, page_roles: unknown, manifest: AddonManifest): void {
  if (page_roles !== undefined && action !== 'install' && action !== 'reinstall') {
    throw new DomainError(
      'page_roles_not_allowed',
      `page_roles is sent with install or reinstall only, not with ${action}: PUT /addons/${manifest.key}/access replaces the whitelist`,
    );
  }
  if (action === 'install' && page_roles === undefined) {
    throw new DomainError(
      'page_roles_required',
      `install needs page_roles naming every page of ${manifest.key} (${manifest.pages.map((p) => p.id).join(', ')})`,
    );
  }
}
