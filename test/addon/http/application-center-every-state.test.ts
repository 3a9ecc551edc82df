import { ADDON_ACTIONS, AddonAction } from '../../../src/addon/decider';
import { act, AdminBrowser, addonEventTypes, manifest, openTo, platformWithAddons } from '../../support/addons';
import { expectRefusal, TestPlatform } from '../../support/platform';

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

/** The body each action is sent with: valid for it, so that only the state decides. */
function bodyFor(action: AddonAction, key: string): object {
  if (action === 'install') return { page_roles: openTo(manifest(key)) };
  if (action === 'menu') return { show_menu: false };
  return {};
}

const platform = platformWithAddons(CELL_ADDONS);
let t: TestPlatform;
let admin: AdminBrowser;
beforeAll(() => ({ t, admin } = platform));

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
