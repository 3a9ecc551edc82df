import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Administrator } from './administrator';
import { answered } from './browser-session';

const ROOT = resolve(__dirname, '../../..');
const ADDON_KEYS = ['helpdesk', 'invoicing', 'newsroom', 'uptime_monitor'];

/** The application center: an administrator installing, toggling and uninstalling the catalogue's add-ons. */
export class AddonOperator {
  private readonly pages = new Map(ADDON_KEYS.map((key) => [key, manifestPages(key)]));

  constructor(
    private readonly admin: Administrator,
    private readonly random: () => number,
  ) {}

  async step(): Promise<boolean> {
    const listed = await this.admin.get('GET /addons', '/addons');
    if (!listed) return false;
    if (listed.status !== 200) return true;
    const addons = listed.body.data.list as { key: string; installed: boolean; enabled: boolean; show_menu: boolean }[];
    const addon = addons.filter((a) => ADDON_KEYS.includes(a.key))[Math.floor(this.random() * ADDON_KEYS.length)]!;
    const { key } = addon;
    const pageRoles = Object.fromEntries(
      this.pages.get(key)!.map((id) => [id, { view: [1, 2], manage: this.random() < 0.5 ? [1] : [] }]),
    );
    const act = async (action: string, body: object, type: string) =>
      answered(
        await this.admin.send({
          label: `POST /addons/:key/actions/${action}`,
          path: `/addons/${key}/actions/${action}`,
          body,
          expected: () => [{ type, data: { key } }],
        }),
      );
    if (!addon.installed)
      return act('install', { page_roles: pageRoles, show_menu: this.random() < 0.5 }, 'AddonInstalled');
    const roll = this.random();
    if (roll < 0.25)
      return act(addon.enabled ? 'disable' : 'enable', {}, addon.enabled ? 'AddonDisabled' : 'AddonEnabled');
    if (roll < 0.45) return act('menu', { show_menu: !addon.show_menu }, 'MenuSet');
    if (roll < 0.6) return act('reinstall', this.random() < 0.5 ? { page_roles: pageRoles } : {}, 'AddonReinstalled');
    if (roll < 0.9) {
      return answered(
        await this.admin.send({
          method: 'put',
          label: 'PUT /addons/:key/access',
          path: `/addons/${key}/access`,
          body: { page_roles: pageRoles },
          expected: () => [{ type: 'PageRolesSet', data: { key } }],
        }),
      );
    }
    return act('uninstall', {}, 'AddonUninstalled');
  }
}

function manifestPages(key: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'addons', key, 'addon.json'), 'utf8')) as {
    pages: { id: string }[];
  };
  return manifest.pages.map((p) => p.id);
}
