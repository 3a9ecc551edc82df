import { act, AdminBrowser, manifest, openTo, platformWithAddons, roleAdmin } from '../../support/addons';
import { expectRefusal, TestPlatform } from '../../support/platform';

/** Who may act on an add-on, and which add-on keys and actions an address may name. */

const helpdesk = manifest('helpdesk', ['tickets', 'reports']);
const platform = platformWithAddons([helpdesk]);
let t: TestPlatform;
let admin: AdminBrowser;
beforeAll(() => ({ t, admin } = platform));

describe('path parameters', () => {
  it('answers 404 for a well-formed key that no add-on has', async () => {
    const res = await expectRefusal(t, () => act(admin, 'no_such_addon', 'enable'), 404, 'addon_not_found');
    expect(res.body.message).toContain('no_such_addon');
  });

  it.each(['Helpdesk', 'h', '9lives', 'help-desk', `a${'b'.repeat(80)}`])(
    'refuses the key %p with 422',
    async (key) => {
      await expectRefusal(t, () => act(admin, key, 'enable'), 422, 'invalid_path_parameter');
    },
  );

  it('refuses an unknown action with 422, listing the actions', async () => {
    const res = await expectRefusal(t, () => act(admin, 'helpdesk', 'upgrade'), 422, 'invalid_path_parameter');
    expect(res.body.message).toContain('install, reinstall, uninstall, enable, disable, menu');
  });
});

describe('permissions', () => {
  it('refuses actions to a role group without addon.manage with 403, and lets it list add-ons with addon.view', async () => {
    const auditor = await roleAdmin(t, 2);
    await expectRefusal(
      t,
      () => act(auditor, 'helpdesk', 'install', { page_roles: openTo(helpdesk) }),
      403,
      'permission_denied',
    );
    // Whatever the body: the caller is checked before it is read.
    const post = (type: string, body: string) => () =>
      auditor.client
        .post('/api/v1/addons/helpdesk/actions/enable')
        .set('X-CSRF-Token', auditor.token)
        .set('Content-Type', type)
        .send(body);
    await expectRefusal(t, post('application/json', '{bad'), 403, 'permission_denied');
    await expectRefusal(t, post('text/plain', 'enable it'), 403, 'permission_denied');
    await auditor.client.get('/api/v1/addons').expect(200);
  });

  it('lets a role group with addon.manage act', async () => {
    const operator = await roleAdmin(t, 1);
    const installed = await act(operator, 'helpdesk', 'install', { page_roles: openTo(helpdesk) }).expect(200);
    expect(installed.body.message).toBe(`${helpdesk.name}: installed version ${helpdesk.version}`);
    await act(operator, 'helpdesk', 'uninstall').expect(200);
  });
});
