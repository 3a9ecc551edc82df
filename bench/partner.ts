/**
 * A partner as a real one comes to be, over HTTP on the running service: a member registers,
 * applies, the super administrator approves, the member claims the key, requests addons.read and
 * the administrator approves it. The administrator also installs every shipped add-on, so that
 * GET /open/addons answers a realistic list rather than an empty one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddonManifest } from '../src/addon/manifest';
import { act, openTo } from '../test/support/addons';
import { activePartner, Partner } from '../test/support/credentials';
import { Service } from './service';

const ADDONS_DIR = join(__dirname, '../addons');

export async function partnerWithAddons(service: Service): Promise<Partner> {
  const partner = await activePartner(service, ['addons.read']);
  const admin = { client: partner.admin, token: partner.adminToken };
  for (const key of readdirSync(ADDONS_DIR)) {
    const manifest = JSON.parse(readFileSync(join(ADDONS_DIR, key, 'addon.json'), 'utf8')) as AddonManifest;
    await act(admin, manifest.key, 'install', { page_roles: openTo(manifest) }).expect(200);
  }
  return partner;
}
