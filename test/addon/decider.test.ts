import { actionCommand, AddonCommand, addonDecider } from '../../src/addon/decider';
import { AddonManifest } from '../../src/addon/manifest';
import { DomainError } from '../../src/shared/domain/decider';
import { PageRoles } from '../../src/addon/page-roles';
import { manifest } from '../support/addons';
import { given } from '../support/decider-spec';
import { addonEvents as events } from './events';

const v1 = manifest('helpdesk', ['tickets', 'reports']);
const v2: AddonManifest = { ...v1, version: '2.0.0', pages: [...v1.pages, { id: 'sla', title: 'SLA policies' }] };
const v1Fix: AddonManifest = { ...v1, version: '1.0.1', description: 'Tickets, queues and fixes' };

const roleGroups = [
  { id: 1, enabled: true },
  { id: 2, enabled: true },
  { id: 3, enabled: false },
];
const roles: PageRoles = { tickets: { view: [1, 2], manage: [1] }, reports: { view: [], manage: [] } };
const rolesV2: PageRoles = { ...roles, sla: { view: [1], manage: [1] } };

const key = 'helpdesk';
const installed = events.installed(v1, roles);
const disabled = events.disabled(key);
const uninstalled = events.uninstalled(key);

const install = (changes: Partial<Extract<AddonCommand, { type: 'InstallAddon' }>['data']> = {}): AddonCommand => ({
  type: 'InstallAddon',
  data: { key, manifest: v1, page_roles: roles, show_menu: true, role_groups: roleGroups, ...changes },
});
const reinstall = (manifest: AddonManifest, page_roles?: PageRoles, show_menu = true): AddonCommand => ({
  type: 'ReinstallAddon',
  data: { key, manifest, show_menu, role_groups: roleGroups, ...(page_roles ? { page_roles } : {}) },
});

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('add-on decider', () => {
  describe('install', () => {
    it('installs the manifest with its page roles, enabled, menu as asked', () => {
      given(addonDecider, [])
        .when(install({ show_menu: false }))
        .then([events.installed(v1, roles, false)]);
    });

    it('installs again after an uninstall, from scratch', () => {
      given(addonDecider, [installed, disabled, uninstalled]).when(install()).then([installed]);
    });

    it('refuses an add-on already installed, enabled or not', () => {
      given(addonDecider, [installed]).when(install()).thenRefuses('addon_already_installed');
      given(addonDecider, [installed, disabled]).when(install()).thenRefuses('addon_already_installed');
    });

    it.each([
      ['a page missing', { tickets: roles.tickets! }, "page 'reports' is missing"],
      [
        'a page the manifest lacks',
        { ...roles, sla: { view: [], manage: [] } },
        "page 'sla': not a page of this add-on",
      ],
      [
        'a role group that does not exist',
        { ...roles, reports: { view: [9], manage: [] } },
        "page 'reports' view: role 9 does not exist",
      ],
      [
        'a disabled role group',
        { ...roles, reports: { view: [3], manage: [3] } },
        "page 'reports' view: role 3 is disabled",
      ],
      [
        'manage outside view',
        { ...roles, tickets: { view: [1], manage: [2] } },
        "page 'tickets' manage: manage role 2 is not in view",
      ],
    ])('refuses page roles with %s, naming the page', (_label, page_roles, message) => {
      given(addonDecider, []).when(install({ page_roles })).thenRefuses('invalid_page_roles');
      expect(refusal(() => addonDecider.decide(install({ page_roles }), addonDecider.initialState)).message).toContain(
        message,
      );
    });
  });

  describe('reinstall', () => {
    it("takes the manifest's version and keeps the saved page roles when none are sent", () => {
      given(addonDecider, [installed])
        .when(reinstall(v1Fix))
        .then([events.reinstalled(v1Fix, '1.0.0', roles)]);
    });

    it('refuses to keep saved page roles that no longer name every page, and says which', () => {
      given(addonDecider, [installed]).when(reinstall(v2)).thenRefuses('page_roles_outdated');
      expect(
        refusal(() => addonDecider.decide(reinstall(v2), addonDecider.evolve(addonDecider.initialState, installed)))
          .message,
      ).toContain("page 'sla' is missing");
    });

    it('takes new page roles for the new pages', () => {
      given(addonDecider, [installed, disabled])
        .when(reinstall(v2, rolesV2, false))
        .then([events.reinstalled(v2, '1.0.0', rolesV2, false)]);
    });

    it('keeps saved page roles even when a role group in them was disabled since: keeping is not granting', () => {
      const groups = roleGroups.map((g) => (g.id === 2 ? { ...g, enabled: false } : g));
      const command = reinstall(v1Fix);
      given(addonDecider, [installed])
        .when({ ...command, data: { ...command.data, role_groups: groups } } as AddonCommand)
        .then([events.reinstalled(v1Fix, '1.0.0', roles)]);
    });

    it('refuses an add-on that is not installed', () => {
      given(addonDecider, []).when(reinstall(v1)).thenRefuses('addon_not_installed');
      given(addonDecider, [installed, uninstalled]).when(reinstall(v1)).thenRefuses('addon_not_installed');
    });
  });

  describe('enable, disable, menu, uninstall', () => {
    const simple = (type: 'EnableAddon' | 'DisableAddon' | 'UninstallAddon'): AddonCommand => ({ type, data: { key } });

    it('disables an enabled add-on and enables it again', () => {
      given(addonDecider, [installed]).when(simple('DisableAddon')).then([disabled]);
      given(addonDecider, [installed, disabled])
        .when(simple('EnableAddon'))
        .then([events.enabled(key)]);
    });

    it('enables with the menu entry sent, and leaves the entry alone when none is', () => {
      given(addonDecider, [installed, disabled])
        .when({ type: 'EnableAddon', data: { key, show_menu: false } })
        .then([events.enabled(key), events.menuSet(key, false)]);
    });

    it('refuses to enable an enabled add-on or disable a disabled one', () => {
      given(addonDecider, [installed]).when(simple('EnableAddon')).thenRefuses('addon_already_enabled');
      given(addonDecider, [installed, disabled]).when(simple('DisableAddon')).thenRefuses('addon_already_disabled');
    });

    it('sets the menu entry', () => {
      given(addonDecider, [installed])
        .when({ type: 'SetMenu', data: { key, show_menu: false } })
        .then([events.menuSet(key, false)]);
    });

    it('uninstalls an installed add-on, enabled or disabled', () => {
      given(addonDecider, [installed]).when(simple('UninstallAddon')).then([uninstalled]);
      given(addonDecider, [installed, disabled]).when(simple('UninstallAddon')).then([uninstalled]);
    });

    it.each(['EnableAddon', 'DisableAddon', 'UninstallAddon'] as const)(
      'refuses %s on an add-on that is not installed',
      (type) => {
        given(addonDecider, []).when(simple(type)).thenRefuses('addon_not_installed');
      },
    );
  });

  describe('page roles', () => {
    const set = (page_roles: PageRoles): AddonCommand => ({
      type: 'SetPageRoles',
      data: { key, page_roles, role_groups: roleGroups },
    });

    it("replaces the whitelist, checked against the installed version's pages", () => {
      const next = { tickets: { view: [2], manage: [2] }, reports: { view: [1], manage: [] } };
      given(addonDecider, [installed])
        .when(set(next))
        .then([events.pageRolesSet(key, next)]);
      given(addonDecider, [installed]).when(set(rolesV2)).thenRefuses('invalid_page_roles');
    });

    it('refuses an add-on that is not installed', () => {
      given(addonDecider, []).when(set(roles)).thenRefuses('addon_not_installed');
    });
  });
});

describe('actions as commands', () => {
  it('requires page_roles with install', () => {
    expect(refusal(() => actionCommand('install', { show_menu: true }, v1, roleGroups)).error).toBe(
      'page_roles_required',
    );
  });

  it.each(['uninstall', 'enable', 'disable', 'menu'] as const)('refuses page_roles with %s', (action) => {
    expect(refusal(() => actionCommand(action, { show_menu: true, page_roles: roles }, v1, roleGroups)).error).toBe(
      'page_roles_not_allowed',
    );
  });

  it('passes page_roles on with install and reinstall, and leaves them out of a reinstall that sent none', () => {
    expect(actionCommand('install', { show_menu: false, page_roles: roles }, v1, roleGroups)).toEqual(
      install({ show_menu: false }),
    );
    expect(actionCommand('reinstall', { show_menu: true }, v1Fix, roleGroups)).toEqual(reinstall(v1Fix));
    expect(actionCommand('reinstall', { show_menu: true, page_roles: rolesV2 }, v2, roleGroups)).toEqual(
      reinstall(v2, rolesV2),
    );
  });

  it('sets the menu from show_menu', () => {
    expect(actionCommand('menu', { show_menu: false }, v1, [])).toEqual({
      type: 'SetMenu',
      data: { key, show_menu: false },
    });
  });
});
