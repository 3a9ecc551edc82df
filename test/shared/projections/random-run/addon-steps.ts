import { decideAddon } from '../../../../src/addon/commands';
import { listRoleGroups } from '../../../../src/access/groups';
import { loadStream } from '../../../../src/shared/commands/handle';
import { actionCommand, ADDON_ACTIONS, addonDecider, AddonEvent, addonStream } from '../../../../src/addon/decider';
import { AddonManifest } from '../../../../src/addon/manifest';
import { fold } from '../../../../src/shared/domain/decider';
import { PageRoles, RoleRef } from '../../../../src/addon/page-roles';
import { Draw } from './draw';

/** The add-ons' actions and page roles in a random run. */

const release = (key: string, version: string, pages: string[]): AddonManifest => ({
  key,
  name: key,
  version,
  description: `${key} ${version}`,
  author: 'Tests',
  pages: pages.map((id) => ({ id, title: id })),
});
const ADDON_STEPS = [...ADDON_ACTIONS, 'access'] as const;
/** What an installed add-on accepts but uninstall, which the random steps still reach: runs end with add-ons installed. */
const INSTALLED_ADDON_STEPS: (typeof ADDON_STEPS)[number][] = ['reinstall', 'enable', 'disable', 'menu', 'access'];
/** Three add-ons, the first in two versions whose pages differ, so that reinstalls can break the saved page roles. */
const ADDON_RELEASES = [
  [release('helpdesk', '1.0.0', ['tickets', 'reports']), release('helpdesk', '1.1.0', ['tickets', 'reports', 'sla'])],
  [release('newsroom', '1.0.0', ['articles'])],
  [release('invoicing', '2.0.0', ['invoices', 'customers'])],
];

/**
 * Page roles for the manifest's pages: mostly enabled role groups with manage ⊆ view; sometimes
 * a page left out, a disabled or missing role group, or a manage role outside view.
 */
function pageRoles({ chance, pick, roleGroups }: Draw, manifest: AddonManifest, groups: RoleRef[]): PageRoles {
  const enabled = groups.filter((g) => g.enabled).map((g) => g.id);
  const role = () =>
    chance(0.03) ? pick([roleGroups + 1, ...groups.filter((g) => !g.enabled).map((g) => g.id)]) : pick(enabled);
  const pages = manifest.pages.filter(() => chance(0.97));
  return Object.fromEntries(
    pages.map(({ id }) => {
      const view = chance(0.1) ? [] : [...new Set([role(), role()])];
      const manage = chance(0.03) ? [pick(enabled)] : view.filter(() => chance(0.5));
      return [id, { view, manage }];
    }),
  );
}

/** Mostly a step the add-on's current state allows; otherwise any, which the domain usually refuses. */
export async function addon(d: Draw): Promise<void> {
  const { stores, pick, chance, ctx } = d;
  const manifest = pick(pick(ADDON_RELEASES));
  const { key } = manifest;
  const role_groups = (await listRoleGroups(stores.events)).map(({ role_id, enabled }) => ({ id: role_id, enabled }));
  const state = fold(addonDecider, await loadStream<AddonEvent>(stores.events, addonStream(key)));
  const action = chance(0.75)
    ? pick(state.status === 'installed' ? INSTALLED_ADDON_STEPS : (['install'] as const))
    : pick(ADDON_STEPS);
  if (action === 'access') {
    await decideAddon(
      stores.events,
      { type: 'SetPageRoles', data: { key, page_roles: pageRoles(d, manifest, role_groups), role_groups } },
      ctx(),
    );
    return;
  }
  // Install must send page roles, reinstall may, the other actions must not: sometimes they do anyway.
  const sendRoles = action === 'install' ? chance(0.9) : chance(action === 'reinstall' ? 0.5 : 0.05);
  const request = { show_menu: chance(0.7), ...(sendRoles ? { page_roles: pageRoles(d, manifest, role_groups) } : {}) };
  await decideAddon(stores.events, actionCommand(action, request, manifest, role_groups), ctx());
}
