import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineRoleGroup, setRoleGroupEnabled } from '../../../src/access/groups';
import { REGISTRY } from '../../support/registry';
import {
  act,
  AdminBrowser,
  addonEventTypes,
  addonsDir,
  cliContext,
  manifest,
  openTo,
  putAccess,
  roleAdmin,
  superAdmin,
  writeManifest,
} from '../../support/addons';
import { activePartner, openCall, Partner } from '../../support/credentials';
import { expectRefusal, startPlatform, TestPlatform } from '../../support/platform';
import { SHELL } from '../../../src/access/grantor';

const API = '/api/v1';

// Role groups 1 (Operators: addon.view, addon.manage, ...) and 2 (Auditors: addon.view, audit.read)
// are seeded; 3 (Billing, no permission) and 4 (Retired, disabled) are defined below.
const portal = manifest('portal', ['overview', 'billing', 'secrets', 'reports']);
const PORTAL_ROLES = {
  overview: { view: [1, 3], manage: [1] },
  billing: { view: [3], manage: [3] },
  secrets: { view: [], manage: [] },
  reports: { view: [1], manage: [] },
};
const wiki = manifest('wiki', ['pages', 'files'], { version: '3.2.0', author: 'Docs Co' });
const idle = manifest('idle', ['home', 'settings']);

let t: TestPlatform;
let dir: string;
let brokenPath: string;
let admin: AdminBrowser;
let operator: AdminBrowser;
let auditor: AdminBrowser;
let billing: AdminBrowser;

beforeAll(async () => {
  dir = addonsDir([portal, wiki, idle]);
  brokenPath = writeManifest(dir, 'broken', { ...manifest('broken'), version: 'latest' });
  t = await startPlatform({ ADDONS_DIR: dir });
  const events = t.platform.stores.events;
  expect(
    (
      await defineRoleGroup(
        events,
        { name: 'Billing', permissions: [] },
        { registered: REGISTRY.permissions, by: SHELL },
        cliContext(),
      )
    ).id,
  ).toBe(3);
  expect(
    (
      await defineRoleGroup(
        events,
        { name: 'Retired', permissions: ['addon.view'] },
        { registered: REGISTRY.permissions, by: SHELL },
        cliContext(),
      )
    ).id,
  ).toBe(4);
  await setRoleGroupEnabled(events, 4, false, SHELL, cliContext());
  admin = await superAdmin(t);
  [operator, auditor, billing] = [await roleAdmin(t, 1), await roleAdmin(t, 2), await roleAdmin(t, 3)];
  await act(admin, 'portal', 'install', { page_roles: PORTAL_ROLES }).expect(200);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (who: AdminBrowser, path: string) => who.client.get(`${API}${path}`);

describe('the catalogue', () => {
  it('skips an invalid manifest with a warning naming its file and the problem; the service starts', async () => {
    const warning = t.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.path === brokenPath);
    expect(warning).toMatchObject({
      level: 40,
      issues: [{ path: 'version', message: expect.stringContaining('semantic version') }],
    });
    const keys = (await get(admin, '/addons').expect(200)).body.data.list.map((a: { key: string }) => a.key);
    expect(keys).toEqual(['idle', 'portal', 'wiki']);
  });
});

describe('GET /addons', () => {
  it('lists every add-on of the catalogue, merged with how it is installed', async () => {
    const res = await get(auditor, '/addons').expect(200);
    const byKey = Object.fromEntries(res.body.data.list.map((a: { key: string }) => [a.key, a]));
    expect(byKey.portal).toEqual({
      key: 'portal',
      name: portal.name,
      version: '1.0.0',
      description: portal.description,
      author: portal.author,
      installed: true,
      installed_version: '1.0.0',
      enabled: true,
      show_menu: true,
    });
    expect(byKey.wiki).toMatchObject({
      version: '3.2.0',
      author: 'Docs Co',
      installed: false,
      installed_version: null,
      enabled: false,
      show_menu: false,
    });
  });

  it('is refused to a role group without addon.view', async () => {
    await expectRefusal(t, () => get(billing, '/addons'), 403, 'permission_denied');
  });
});

describe('GET /roles and GET /context', () => {
  const group = (id: number, name: string, permissions: string[]) => ({ id, name, permissions });

  it('/roles lists the enabled role groups only, for addon.manage', async () => {
    const res = await get(operator, '/roles').expect(200);
    expect(res.body.data.list).toEqual([
      group(1, 'Operators', ['addon.view', 'addon.manage', 'credential.review']),
      group(2, 'Auditors', ['addon.view', 'audit.read']),
      group(3, 'Billing', []),
    ]);
    await expectRefusal(t, () => get(auditor, '/roles'), 403, 'permission_denied');
  });

  it('/context names the account with its permissions, and the enabled role groups', async () => {
    const asSuper = (await get(admin, '/context').expect(200)).body.data;
    expect(asSuper.account).toEqual({
      id: expect.any(Number),
      username: 'admin',
      is_super: true,
      role_id: null,
      permissions: REGISTRY.permissions,
    });
    expect(asSuper.role_groups.map((g: { id: number }) => g.id)).toEqual([1, 2, 3]);
    const asAuditor = (await get(auditor, '/context').expect(200)).body.data;
    expect(asAuditor.account).toMatchObject({ is_super: false, role_id: 2, permissions: ['addon.view', 'audit.read'] });
    expect((await get(billing, '/context').expect(200)).body.data.account.permissions).toEqual([]);
  });
});

describe('GET /addons/{key}/pages', () => {
  const pagesOf = async (who: AdminBrowser, key = 'portal') =>
    (await get(who, `/addons/${key}/pages`).expect(200)).body.data.list;
  const page = (id: string, can_manage: boolean) => ({ id, title: `Title of ${id}`, can_manage });

  it('shows a super administrator every page, each manageable', async () => {
    expect(await pagesOf(admin)).toEqual(portal.pages.map((p) => ({ ...p, can_manage: true })));
  });

  it('shows a role-group administrator the pages whose view holds the group, manageable where manage does; empty pages never', async () => {
    expect(await pagesOf(operator)).toEqual([page('overview', true), page('reports', false)]);
    expect(await pagesOf(billing)).toEqual([page('overview', false), page('billing', true)]);
    expect(await pagesOf(auditor)).toEqual([]);
  });

  it('shows nothing of an add-on that is not installed, or disabled, to anyone', async () => {
    expect(await pagesOf(admin, 'wiki')).toEqual([]);
    await act(admin, 'portal', 'disable').expect(200);
    try {
      const res = await get(admin, '/addons/portal/pages').expect(200);
      expect(res.body).toEqual({
        code: 0,
        message: 'add-on portal is disabled: it has no page to open',
        data: { list: [], next: null },
      });
      expect(await pagesOf(operator)).toEqual([]);
    } finally {
      await act(admin, 'portal', 'enable').expect(200);
    }
  });

  it('answers 404 for an unknown key and 422 for a malformed one', async () => {
    await expectRefusal(t, () => get(billing, '/addons/nothing_here/pages'), 404, 'addon_not_found');
    await expectRefusal(t, () => get(billing, '/addons/NOPE/pages'), 422, 'invalid_path_parameter');
  });
});

describe('GET and PUT /addons/{key}/access', () => {
  it("shows the catalogue's pages and no whitelist for an add-on that is not installed", async () => {
    const res = await get(operator, '/addons/wiki/access').expect(200);
    expect(res.body.data).toEqual({ pages: wiki.pages, page_roles: null });
  });

  it('shows the installed pages and the saved whitelist', async () => {
    expect((await get(operator, '/addons/portal/access').expect(200)).body.data).toEqual({
      pages: portal.pages,
      page_roles: PORTAL_ROLES,
    });
  });

  it('replaces the whole whitelist, and answers it as saved', async () => {
    const next = {
      overview: { view: [2], manage: [] },
      billing: { view: [3], manage: [] },
      secrets: { view: [], manage: [] },
      reports: { view: [1, 2], manage: [1, 2] },
    };
    try {
      const res = await putAccess(operator, 'portal', { page_roles: next }).expect(200);
      expect(res.body.data).toEqual({ page_roles: next });
      expect((await addonEventTypes(t, 'portal')).at(-1)).toBe('PageRolesSet');
      expect((await get(operator, '/addons/portal/access').expect(200)).body.data.page_roles).toEqual(next);
      expect(
        (await get(auditor, '/addons/portal/pages').expect(200)).body.data.list.map((p: { id: string }) => p.id),
      ).toEqual(['overview', 'reports']);
    } finally {
      await putAccess(operator, 'portal', { page_roles: PORTAL_ROLES }).expect(200);
    }
  });

  it('refuses a whitelist that is not whole, names a disabled role group, or is missing, appending nothing', async () => {
    const { reports: _left, ...partial } = PORTAL_ROLES;
    const missing = await expectRefusal(
      t,
      () => putAccess(operator, 'portal', { page_roles: partial }),
      422,
      'invalid_page_roles',
    );
    expect(missing.body.message).toContain("page 'reports' is missing");
    const retired = { ...PORTAL_ROLES, secrets: { view: [4], manage: [] } };
    const disabled = await expectRefusal(
      t,
      () => putAccess(operator, 'portal', { page_roles: retired }),
      422,
      'invalid_page_roles',
    );
    expect(disabled.body.message).toContain("page 'secrets' view: role 4 is disabled");
    // Every page-role rule is the decider's, so every broken or missing whitelist gives the one reason.
    await expectRefusal(t, () => putAccess(operator, 'portal', {}), 422, 'invalid_page_roles');
    await expectRefusal(t, () => putAccess(operator, 'portal', { page_roles: {} }), 422, 'invalid_page_roles');
  });

  it('refuses an add-on that is not installed with 422 and an unknown key with 404', async () => {
    await expectRefusal(t, () => putAccess(operator, 'wiki', { page_roles: openTo(wiki) }), 422, 'addon_not_installed');
    await expectRefusal(
      t,
      () => putAccess(operator, 'nothing_here', { page_roles: openTo(wiki) }),
      404,
      'addon_not_found',
    );
    await expectRefusal(t, () => get(operator, '/addons/nothing_here/access'), 404, 'addon_not_found');
  });

  it('is refused to a role group without addon.manage', async () => {
    await expectRefusal(t, () => get(auditor, '/addons/portal/access'), 403, 'permission_denied');
    await expectRefusal(t, () => putAccess(auditor, 'portal', { page_roles: PORTAL_ROLES }), 403, 'permission_denied');
  });
});

describe('GET /open/addons', () => {
  let partner: Partner;
  beforeAll(async () => {
    partner = await activePartner(t);
  });

  /** The partner's list, once it shows what is expected: the open API reads an in-memory replica that follows the log. */
  async function openList(expected: unknown[]): Promise<unknown[]> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const list = (await openCall(t, '/open/addons', partner.apiid, partner.apikey).expect(200)).body.data
        .list as unknown[];
      if (JSON.stringify(list) === JSON.stringify(expected) || Date.now() > deadline) return list;
      await sleep(20);
    }
  }

  const entry = (m: typeof portal) => ({
    key: m.key,
    name: m.name,
    version: m.version,
    description: m.description,
    author: m.author,
  });

  it('lists the installed and enabled add-ons, with their installed version', async () => {
    expect(await openList([entry(portal)])).toEqual([entry(portal)]);
    await act(admin, 'wiki', 'install', { page_roles: openTo(wiki) }).expect(200);
    expect(await openList([entry(portal), entry(wiki)])).toEqual([entry(portal), entry(wiki)]);
  });

  it('leaves out a disabled add-on until it is enabled again, and an uninstalled one', async () => {
    await act(admin, 'wiki', 'disable').expect(200);
    expect(await openList([entry(portal)])).toEqual([entry(portal)]);
    await act(admin, 'wiki', 'enable').expect(200);
    expect(await openList([entry(portal), entry(wiki)])).toEqual([entry(portal), entry(wiki)]);
    await act(admin, 'wiki', 'uninstall').expect(200);
    expect(await openList([entry(portal)])).toEqual([entry(portal)]);
  });
});
