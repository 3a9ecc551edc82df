import { AddressInfo, connect } from 'node:net';
import { act, AdminBrowser, addonEventTypes, manifest, openTo, platformWithAddons } from '../../support/addons';
import { expectRefusal, TestPlatform } from '../../support/platform';

/** What POST /addons/{key}/actions/{action} takes in its body, and what it refuses there. */

const helpdesk = manifest('helpdesk', ['tickets', 'reports']);
const platform = platformWithAddons([helpdesk]);
let t: TestPlatform;
let admin: AdminBrowser;
beforeAll(() => ({ t, admin } = platform));

describe('the action body', () => {
  const key = 'helpdesk';
  const roles = openTo(helpdesk);
  afterEach(async () => {
    const last = (await addonEventTypes(t, key)).at(-1);
    if (last !== undefined && last !== 'AddonUninstalled') await act(admin, key, 'uninstall').expect(200);
  });

  it('installs with the menu shown unless show_menu is false', async () => {
    expect((await act(admin, key, 'install', { page_roles: roles }).expect(200)).body.data.show_menu).toBe(true);
    await act(admin, key, 'uninstall').expect(200);
    expect(
      (await act(admin, key, 'install', { page_roles: roles, show_menu: false }).expect(200)).body.data.show_menu,
    ).toBe(false);
  });

  it('sets the menu entry to shown when show_menu is left out', async () => {
    await act(admin, key, 'install', { page_roles: roles, show_menu: false }).expect(200);
    expect((await act(admin, key, 'menu', {}).expect(200)).body.data.show_menu).toBe(true);
  });

  it('refuses install without page_roles, naming the pages to cover', async () => {
    const res = await expectRefusal(t, () => act(admin, key, 'install', {}), 422, 'page_roles_required');
    expect(res.body.message).toContain('tickets, reports');
  });

  it.each(['uninstall', 'enable', 'disable', 'menu'])('refuses page_roles with %s', async (action) => {
    await act(admin, key, 'install', { page_roles: roles }).expect(200);
    await expectRefusal(t, () => act(admin, key, action, { page_roles: roles }), 422, 'page_roles_not_allowed');
  });

  it('refuses install with page_roles that miss a page or name a disabled or unknown role group, naming the page', async () => {
    const missing = await expectRefusal(
      t,
      () => act(admin, key, 'install', { page_roles: { tickets: roles.tickets } }),
      422,
      'invalid_page_roles',
    );
    expect(missing.body.message).toContain("page 'reports' is missing");
    const unknown = { ...roles, reports: { view: [99], manage: [] } };
    const res = await expectRefusal(
      t,
      () => act(admin, key, 'install', { page_roles: unknown }),
      422,
      'invalid_page_roles',
    );
    expect(res.body.message).toContain("page 'reports' view: role 99 does not exist");
    expect(res.body.message).toMatch(/\(GET \/roles lists the enabled role groups\)$/);
  });

  it('refuses page_roles that break the page-roles rules with the one reason invalid_page_roles, listing each problem by page', async () => {
    const page_roles = { tickets: { view: [1], manage: [2] }, reports: { view: [0, 1, 1], manage: [], edit: [1] } };
    const res = await expectRefusal(t, () => act(admin, key, 'install', { page_roles }), 422, 'invalid_page_roles');
    expect(res.body.message).toContain("page 'tickets' manage: manage role 2 is not in view");
    expect(res.body.message).toContain("page 'reports' view.0: view holds role ids: integers of at least 1");
    expect(res.body.message).toContain("page 'reports': a page has exactly view and manage: remove edit");
    expect(res.body.data.issues).toEqual(
      expect.arrayContaining([
        {
          path: 'page_roles.tickets.manage',
          message: 'manage role 2 is not in view: whoever operates a page must see it',
        },
        { path: 'page_roles.reports.view.0', message: 'view holds role ids: integers of at least 1' },
      ]),
    );
  });

  it('says a key that is no page id is not one, and a role id that is no id only once', async () => {
    for (const key_ of ['tickéts', '', 'toString']) {
      const page_roles = { ...roles, [key_]: { view: [], manage: [] } };
      const res = await expectRefusal(t, () => act(admin, key, 'install', { page_roles }), 422, 'invalid_page_roles');
      expect(res.body.data.issues).toEqual([
        {
          path: `page_roles.${key_}`,
          message: expect.stringMatching(/^not a page id: a page id is a lower-case letter/),
        },
      ]);
    }
    const res = await expectRefusal(
      t,
      () => act(admin, key, 'install', { page_roles: { ...roles, reports: { view: [-1], manage: [] } } }),
      422,
      'invalid_page_roles',
    );
    expect(res.body.data.issues).toEqual([
      { path: 'page_roles.reports.view.0', message: 'view holds role ids: integers of at least 1' },
    ]);
  });

  it('refuses an unknown field, a show_menu that is not a boolean, and a body that is not JSON', async () => {
    const unknown = await expectRefusal(
      t,
      () => act(admin, key, 'install', { page_roles: roles, menu: true }),
      422,
      'validation_failed',
    );
    expect(unknown.body.message).toBe('unknown field "menu": not taken here, remove it');
    await expectRefusal(
      t,
      () => act(admin, key, 'install', { page_roles: roles, show_menu: 'yes' }),
      422,
      'validation_failed',
    );
    await expectRefusal(
      t,
      () =>
        admin.client
          .post('/api/v1/addons/helpdesk/actions/install')
          .set('X-CSRF-Token', admin.token)
          .type('text/plain')
          .send('install'),
      415,
      'unsupported_media_type',
    );
  });
});

/**
 * A write sent as `curl -X POST` sends it: no Content-Length and no Transfer-Encoding, which koa
 * reads as no body at all. HTTP clients such as supertest send `Content-Length: 0` instead.
 */
async function withoutBody(
  browser: AdminBrowser,
  method: 'POST' | 'PUT',
  path: string,
): Promise<{ status: number; body: { data: { error: string }; message: string } }> {
  const seen = browser.client.get('/api/v1/addons');
  await seen;
  const cookies = (seen as unknown as { cookies: string }).cookies;
  const { port } = t.server.address() as AddressInfo;
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookies}\r\nX-CSRF-Token: ${browser.token}\r\nConnection: close\r\n\r\n`,
      );
    });
    let text = '';
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

describe('a request without a body', () => {
  it('is refused with 415 by the action and PUT access, whose body is required, and changes nothing', async () => {
    await act(admin, 'helpdesk', 'install', { page_roles: openTo(helpdesk) }).expect(200);
    const before = (await admin.client.get('/api/v1/addons').expect(200)).body.data;
    const appended = (await t.allEvents()).length;
    for (const [method, path] of [
      ['POST', '/api/v1/addons/helpdesk/actions/disable'],
      ['PUT', '/api/v1/addons/helpdesk/access'],
    ] as const) {
      const answer = await withoutBody(admin, method, path);
      expect(answer.status).toBe(415);
      expect(answer.body.data.error).toBe('unsupported_media_type');
      expect(answer.body.message).toContain('needs a JSON body');
    }
    // An empty body with Content-Length: 0 is refused too, with or without a JSON media type.
    await expectRefusal(
      t,
      () => admin.client.post('/api/v1/addons/helpdesk/actions/disable').set('X-CSRF-Token', admin.token),
      415,
      'unsupported_media_type',
    );
    for (const [method, path] of [
      ['post', '/api/v1/addons/helpdesk/actions/disable'],
      ['put', '/api/v1/addons/helpdesk/access'],
    ] as const) {
      const empty = () =>
        admin.client[method](path)
          .set('X-CSRF-Token', admin.token)
          .set('Content-Type', 'application/json')
          .set('Content-Length', '0');
      await expectRefusal(t, empty, 415, 'unsupported_media_type');
    }
    expect((await admin.client.get('/api/v1/addons').expect(200)).body.data).toEqual(before);
    expect((await t.allEvents()).length).toBe(appended);
    await act(admin, 'helpdesk', 'uninstall').expect(200);
  });
});
