import { rmSync } from 'node:fs';
import { AddressInfo, connect } from 'node:net';
import { ADDON_ACTIONS, AddonAction } from '../../../src/addon/decider';
import {
  act,
  AdminBrowser,
  addonEventTypes,
  addonsDir,
  manifest,
  openTo,
  putAccess,
  roleAdmin,
  superAdmin,
} from '../../support/addons';
import { expectRefusal, startPlatform, TestPlatform } from '../../support/platform';

/**
 * POST /addons/{key}/actions/{action} against every add-on state:
 * the status, and exactly the events appended to the add-on's stream.
 */

const STATES = ['not installed', 'enabled', 'disabled'] as const;
type State = (typeof STATES)[number];

type Outcome = { status: 200; events: string[]; answer: Record<string, unknown> } | { status: 422; error: string };

const ok = (event: string, answer: Record<string, unknown>): Outcome => ({ status: 200, events: [event], answer });
const refused = (error: string): Outcome => ({ status: 422, error });

const installedEnabled = { installed: true, installed_version: '1.0.0', enabled: true, show_menu: true };
const installedDisabled = { ...installedEnabled, enabled: false };
const notInstalled = { installed: false, installed_version: null, enabled: false, show_menu: false };

const TABLE: Record<AddonAction, Record<State, Outcome>> = {
  install: {
    'not installed': ok('AddonInstalled', installedEnabled),
    enabled: refused('addon_already_installed'),
    disabled: refused('addon_already_installed'),
  },
  reinstall: {
    'not installed': refused('addon_not_installed'),
    enabled: ok('AddonReinstalled', installedEnabled),
    disabled: ok('AddonReinstalled', installedDisabled),
  },
  uninstall: {
    'not installed': refused('addon_not_installed'),
    enabled: ok('AddonUninstalled', notInstalled),
    disabled: ok('AddonUninstalled', notInstalled),
  },
  enable: {
    'not installed': refused('addon_not_installed'),
    enabled: refused('addon_already_enabled'),
    disabled: ok('AddonEnabled', installedEnabled),
  },
  disable: {
    'not installed': refused('addon_not_installed'),
    enabled: ok('AddonDisabled', installedDisabled),
    disabled: refused('addon_already_disabled'),
  },
  menu: {
    'not installed': refused('addon_not_installed'),
    enabled: ok('MenuSet', { ...installedEnabled, show_menu: false }),
    disabled: ok('MenuSet', { ...installedDisabled, show_menu: false }),
  },
};

// One add-on per cell, so that every cell starts from its own state.
const keyOf = (action: AddonAction, state: State) => `${action}_${state.replace(' ', '_')}`;
const CELLS = ADDON_ACTIONS.flatMap((action) =>
  STATES.map((state) => ({ action, state, outcome: TABLE[action][state] })),
);
const CELL_ADDONS = CELLS.map(({ action, state }) => manifest(keyOf(action, state)));
const helpdesk = manifest('helpdesk', ['tickets', 'reports']);
const newsroom = manifest('newsroom', ['articles']);

/** The body each action is sent with: valid for it, so that only the state decides. */
function bodyFor(action: AddonAction, key: string): object {
  if (action === 'install') return { page_roles: openTo(manifest(key)) };
  if (action === 'menu') return { show_menu: false };
  return {};
}

let t: TestPlatform;
let dir: string;
let admin: AdminBrowser;

beforeAll(async () => {
  dir = addonsDir([...CELL_ADDONS, helpdesk, newsroom]);
  t = await startPlatform({ ADDONS_DIR: dir });
  admin = await superAdmin(t);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function bringTo(key: string, state: State): Promise<void> {
  if (state === 'not installed') return;
  await act(admin, key, 'install', { page_roles: openTo(manifest(key)) }).expect(200);
  if (state === 'disabled') await act(admin, key, 'disable').expect(200);
}

describe('every action in every add-on state', () => {
  it.each(CELLS)('$action on an add-on $state', async ({ action, state, outcome }) => {
    const key = keyOf(action, state);
    await bringTo(key, state);
    const before = await addonEventTypes(t, key);

    if (outcome.status === 422) {
      await expectRefusal(t, () => act(admin, key, action, bodyFor(action, key)), 422, outcome.error);
      expect(await addonEventTypes(t, key)).toEqual(before);
      return;
    }
    const res = await act(admin, key, action, bodyFor(action, key)).expect(200);
    expect((await addonEventTypes(t, key)).slice(before.length)).toEqual(outcome.events);
    expect(res.body).toEqual({
      code: 0,
      message: expect.any(String),
      data: { ...manifestFields(key), ...outcome.answer },
    });
  });
});

function manifestFields(key: string) {
  const { name, version, description, author } = manifest(key);
  return { key, name, version, description, author };
}

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

describe('concurrency', () => {
  it('records one install of simultaneous installs of one key; the others are told it is installed', async () => {
    const key = 'helpdesk';
    const before = await addonEventTypes(t, key);
    const admins = [admin, await superAdmin(t), await superAdmin(t), await superAdmin(t)];
    const answers = await Promise.all(admins.map((a) => act(a, key, 'install', { page_roles: openTo(helpdesk) })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
    expect(answers.filter((r) => r.status === 422).map((r) => r.body.data.error)).toEqual(
      Array(3).fill('addon_already_installed'),
    );
    expect((await addonEventTypes(t, key)).slice(before.length)).toEqual(['AddonInstalled']);
  });

  it("answers each action with the add-on as that action left it, while other administrators' actions land right after", async () => {
    const key = 'newsroom';
    const [installer, editor, remover, reinstaller, menuSetter] = [
      admin,
      await superAdmin(t),
      await superAdmin(t),
      await superAdmin(t),
      await superAdmin(t),
    ];
    const page_roles = openTo(newsroom);
    type ActionAnswer = { action: string; status: number; body: { message: string; data: Record<string, unknown> } };
    const answered =
      (action: string) =>
      (r: Omit<ActionAnswer, 'action'>): ActionAnswer => ({ action, status: r.status, body: r.body });
    const answers: ActionAnswer[] = [];
    for (let round = 0; round < 15; round++) {
      await act(installer, key, 'install', { page_roles }).expect(200);
      answers.push(
        ...(await Promise.all([
          putAccess(editor, key, { page_roles }).then(answered('access')),
          act(reinstaller, key, 'reinstall').then(answered('reinstall')),
          act(menuSetter, key, 'menu', { show_menu: false }).then(answered('menu')),
          act(remover, key, 'uninstall').then(answered('uninstall')),
        ])),
      );
    }
    expect(
      answers.filter((a) => a.status !== 200 && !(a.status === 422 && a.body.data.error === 'addon_not_installed')),
    ).toEqual([]);
    const done = answers.filter((a) => a.status === 200);
    for (const { action, body } of done) {
      if (action === 'access') expect(body.data).toEqual({ page_roles });
      else if (action === 'uninstall') expect(body.data).toMatchObject({ installed: false, installed_version: null });
      else if (action === 'menu') expect(body.data).toMatchObject({ installed: true, show_menu: false });
      else
        expect(body).toMatchObject({
          message: `${newsroom.name}: reinstalled version ${newsroom.version}`,
          data: { installed: true, installed_version: newsroom.version },
        });
    }
    expect(done.filter((a) => a.action === 'uninstall')).toHaveLength(15);
    expect(new Set(done.map((a) => a.action))).toEqual(new Set(['access', 'reinstall', 'menu', 'uninstall']));
  });
});
