import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, superAdmin } from '../../support/addons';
import { expectRefusal, startPlatform } from '../../support/platform';

/**
 * The upgrade docs/application-center.md describes, with the shipped helpdesk manifests: the
 * operator replaces addon.json with the next version and restarts; the catalogue offers it, the
 * installed version stays until an administrator reinstalls.
 */
const SHIPPED = join(__dirname, '../../../addons/helpdesk');
const V1_ROLES = {
  tickets: { view: [1, 2], manage: [1] },
  queues: { view: [1], manage: [1] },
  reports: { view: [1, 2], manage: [] },
};

describe('upgrading an add-on', () => {
  const root = mkdtempSync(join(tmpdir(), 'platform-upgrade-'));
  const addons = join(root, 'addons');
  const data = join(root, 'data');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('offers the new version after a restart, keeps the old one installed, and reinstalls it with page roles for the new page', async () => {
    mkdirSync(join(addons, 'helpdesk'), { recursive: true });
    mkdirSync(data);
    copyFileSync(join(SHIPPED, 'addon.json'), join(addons, 'helpdesk', 'addon.json'));

    const first = await startPlatform({ ADDONS_DIR: addons }, data);
    await act(await superAdmin(first), 'helpdesk', 'install', { page_roles: V1_ROLES }).expect(200);
    await first.close();

    copyFileSync(join(SHIPPED, 'addon-1.1.0.json'), join(addons, 'helpdesk', 'addon.json'));
    const t = await startPlatform({ ADDONS_DIR: addons }, data);
    try {
      const admin = await superAdmin(t);
      const listed = await admin.client.get('/api/v1/addons').expect(200);
      expect(listed.body.data.list).toEqual([
        expect.objectContaining({ key: 'helpdesk', version: '1.1.0', installed_version: '1.0.0' }),
      ]);
      const pages = await admin.client.get('/api/v1/addons/helpdesk/pages').expect(200);
      expect(pages.body.data.list.map((p: { id: string }) => p.id)).toEqual(['tickets', 'queues', 'reports']);

      const outdated = await expectRefusal(
        t,
        () => act(admin, 'helpdesk', 'reinstall', {}),
        422,
        'page_roles_outdated',
      );
      expect(outdated.body.message).toContain("page 'sla-policies' is missing");

      const page_roles = { ...V1_ROLES, 'sla-policies': { view: [1], manage: [1] } };
      const reinstalled = await act(admin, 'helpdesk', 'reinstall', { page_roles }).expect(200);
      expect(reinstalled.body.data).toMatchObject({ version: '1.1.0', installed_version: '1.1.0', enabled: true });
      const access = await admin.client.get('/api/v1/addons/helpdesk/access').expect(200);
      expect(access.body.data.page_roles).toEqual(page_roles);
      expect(access.body.data.pages.map((p: { id: string }) => p.id)).toEqual([
        'tickets',
        'queues',
        'reports',
        'sla-policies',
      ]);
    } finally {
      await t.close();
    }
  });
});
