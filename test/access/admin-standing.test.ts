import { adminStandingDecider } from '../../src/access/admin-standing';
import { Grantor } from '../../src/access/grantor';
import { given } from '../support/decider-spec';
import { accessEvents } from './events';
import { GROUP, grantors } from './grantors';

const { adminDisabled, adminEnabled } = accessEvents;
const { SHELL, holder, superAdmin } = grantors;
// Administrators of role groups hold `permissions`; a super administrator holds none through a group.
const role = (is_super: boolean) => (is_super ? null : GROUP);
const disable = (
  admin_id: number,
  is_super: boolean,
  super_ids: number[],
  by: Grantor = SHELL,
  permissions: string[] = [],
) =>
  ({
    type: 'DisableAdmin',
    data: { admin_id, is_super, role_id: role(is_super), permissions, super_ids },
    by,
  }) as const;
const enable = (admin_id: number, is_super = false, by: Grantor = SHELL, permissions: string[] = []) =>
  ({ type: 'EnableAdmin', data: { admin_id, is_super, role_id: role(is_super), permissions }, by }) as const;
const manager = holder(9, ['access.manage']);

describe('the standing of administrators', () => {
  it('disables an administrator of a role group, and enables them again', () => {
    given(adminStandingDecider, [])
      .when(disable(7, false, [1]))
      .then([adminDisabled(7)]);
    given(adminStandingDecider, [adminDisabled(7)])
      .when(enable(7))
      .then([adminEnabled(7)]);
  });

  it('disables a super administrator while another stays enabled', () => {
    given(adminStandingDecider, [])
      .when(disable(1, true, [1, 2]))
      .then([adminDisabled(1)]);
    given(adminStandingDecider, [adminDisabled(2), adminEnabled(2)])
      .when(disable(1, true, [1, 2]))
      .then([adminDisabled(1)]);
  });

  it('never disables the last enabled super administrator', () => {
    given(adminStandingDecider, [])
      .when(disable(1, true, [1]))
      .thenRefuses('last_super_admin', /last enabled super administrator/);
    given(adminStandingDecider, [adminDisabled(2)])
      .when(disable(1, true, [1, 2]))
      .thenRefuses('last_super_admin');
    // Disabling every administrator of a role group leaves the super administrators as they were.
    given(adminStandingDecider, [adminDisabled(2)])
      .when(disable(5, false, [1, 2]))
      .then([adminDisabled(5)]);
  });

  it('lets only a super administrator disable or enable a super administrator', () => {
    given(adminStandingDecider, [])
      .when(disable(1, true, [1, 2], manager))
      .thenRefuses('super_admin_only', /only a super administrator/);
    given(adminStandingDecider, [adminDisabled(2)])
      .when(enable(2, true, manager))
      .thenRefuses('super_admin_only');
    given(adminStandingDecider, [adminDisabled(2)])
      .when(enable(2, true, superAdmin(1)))
      .then([adminEnabled(2)]);
  });

  it('lets a holder of access.manage disable and enable only administrators whose permissions it holds', () => {
    const weaker = ['access.manage'];
    given(adminStandingDecider, [])
      .when(disable(7, false, [1], manager, weaker))
      .then([adminDisabled(7, { is_super: false, holds: ['access.manage'] })]);
    given(adminStandingDecider, [adminDisabled(7, { is_super: false, holds: weaker })])
      .when(enable(7, false, manager, weaker))
      .then([adminEnabled(7)]);
    const stronger = ['access.manage', 'audit.read'];
    given(adminStandingDecider, [])
      .when(disable(7, false, [1], manager, stronger))
      .thenRefuses('permission_not_held', /audit\.read/);
    given(adminStandingDecider, [adminDisabled(7)])
      .when(enable(7, false, manager, stronger))
      .thenRefuses('permission_not_held', /audit\.read/);
  });

  it("holds webhook.manage in the caller's own group only: an administrator of another group holding it is out of reach", () => {
    const hooks = holder(9, ['access.manage', 'webhook.manage'], GROUP + 1);
    given(adminStandingDecider, [])
      .when(disable(7, false, [1], hooks, ['webhook.manage']))
      .thenRefuses('permission_not_held', /own role group only/);
    given(adminStandingDecider, [])
      .when(disable(7, false, [1], holder(9, ['access.manage', 'webhook.manage']), ['webhook.manage']))
      .then([adminDisabled(7, { is_super: false, holds: ['access.manage', 'webhook.manage'] })]);
  });

  it('keeps a disable from being undone by one holding less than who disabled: a sockpuppet cannot enable its creator', () => {
    given(adminStandingDecider, [adminDisabled(7)])
      .when(enable(7, false, manager, ['access.manage']))
      .thenRefuses('super_admin_only', /disabled this administrator/);
    const disabler = { is_super: false, holds: ['access.manage', 'webhook.manage'] };
    given(adminStandingDecider, [adminDisabled(7, disabler)])
      .when(enable(7, false, manager, ['access.manage']))
      .thenRefuses('permission_not_held', /webhook\.manage/);
    given(adminStandingDecider, [adminDisabled(7, disabler)])
      .when(enable(7, false, holder(8, disabler.holds), ['access.manage']))
      .then([adminEnabled(7)]);
  });

  it('never lets an administrator disable or enable itself here', () => {
    given(adminStandingDecider, [])
      .when(disable(9, false, [1], manager, ['access.manage']))
      .thenRefuses('own_account');
    given(adminStandingDecider, [])
      .when(disable(1, true, [1, 2], superAdmin(1)))
      .thenRefuses('own_account');
  });

  it('refuses to disable the disabled or enable the enabled', () => {
    given(adminStandingDecider, [adminDisabled(7)])
      .when(disable(7, false, [1]))
      .thenRefuses('admin_already_disabled');
    given(adminStandingDecider, []).when(enable(7)).thenRefuses('admin_already_enabled');
    given(adminStandingDecider, [adminDisabled(7), adminEnabled(7)])
      .when(enable(7))
      .thenRefuses('admin_already_enabled');
  });

  it("reads a disable recorded before who disabled was kept as a super administrator's", () => {
    const legacy = { type: 'AdminDisabled', data: { admin_id: 7 } } as const;
    given(adminStandingDecider, [legacy])
      .when(enable(7, false, manager, []))
      .thenRefuses('super_admin_only');
  });
});
