import {
  act,
  AdminBrowser,
  addonEventTypes,
  manifest,
  openTo,
  platformWithAddons,
  putAccess,
  superAdmin,
} from '../../support/addons';
import { TestPlatform } from '../../support/platform';

/** Administrators acting on one add-on at once. */

const helpdesk = manifest('helpdesk', ['tickets', 'reports']);
const newsroom = manifest('newsroom', ['articles']);
const platform = platformWithAddons([helpdesk, newsroom]);
let t: TestPlatform;
let admin: AdminBrowser;
beforeAll(() => ({ t, admin } = platform));

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
