import { AddonEvent } from '../../src/addon/decider';
import { AddonManifest } from '../../src/addon/manifest';
import { PageRoles } from '../../src/addon/page-roles';

/** Add-on events, as the tests of the add-on slice build their histories and expectations. */
export const addonEvents = {
  installed: (manifest: AddonManifest, page_roles: PageRoles, show_menu = true): AddonEvent => ({
    type: 'AddonInstalled',
    data: { ...manifest, page_roles, show_menu },
  }),
  reinstalled: (
    manifest: AddonManifest,
    previous_version: string,
    page_roles: PageRoles,
    show_menu = true,
  ): AddonEvent => ({
    type: 'AddonReinstalled',
    data: { ...manifest, previous_version, page_roles, show_menu },
  }),
  uninstalled: (key: string): AddonEvent => ({ type: 'AddonUninstalled', data: { key } }),
  enabled: (key: string): AddonEvent => ({ type: 'AddonEnabled', data: { key } }),
  disabled: (key: string): AddonEvent => ({ type: 'AddonDisabled', data: { key } }),
  menuSet: (key: string, show_menu: boolean): AddonEvent => ({ type: 'MenuSet', data: { key, show_menu } }),
  pageRolesSet: (key: string, page_roles: PageRoles): AddonEvent => ({
    type: 'PageRolesSet',
    data: { key, page_roles },
  }),
};
