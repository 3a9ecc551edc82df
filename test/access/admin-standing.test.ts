import { adminStandingDecider } from '../../src/access/admin-standing';
import { given } from '../support/decider-spec';
import { accessEvents } from './events';

const { adminDisabled, adminEnabled } = accessEvents;
// Asked by a super administrator unless `by_super` says otherwise.
const disable = (admin_id: number, is_super: boolean, super_ids: number[], by_super = true) =>
  ({ type: 'DisableAdmin', data: { admin_id, is_super, super_ids, by_super } }) as const;
const enable = (admin_id: number, is_super = false, by_super = true) => ({ type: 'EnableAdmin', data: { admin_id, is_super, by_super } }) as const;

describe('the standing of administrators', () => {
  it('disables an administrator of a role group, and enables them again', () => {
    given(adminStandingDecider, []).when(disable(7, false, [1])).then([adminDisabled(7)]);
    given(adminStandingDecider, [adminDisabled(7)]).when(enable(7)).then([adminEnabled(7)]);
  });

  it('disables a super administrator while another stays enabled', () => {
    given(adminStandingDecider, []).when(disable(1, true, [1, 2])).then([adminDisabled(1)]);
    given(adminStandingDecider, [adminDisabled(2), adminEnabled(2)]).when(disable(1, true, [1, 2])).then([adminDisabled(1)]);
  });

  it('never disables the last enabled super administrator', () => {
    given(adminStandingDecider, []).when(disable(1, true, [1])).thenRefuses('last_super_admin', /last enabled super administrator/);
    given(adminStandingDecider, [adminDisabled(2)]).when(disable(1, true, [1, 2])).thenRefuses('last_super_admin');
    // Disabling every administrator of a role group leaves the super administrators as they were.
    given(adminStandingDecider, [adminDisabled(2)]).when(disable(5, false, [1, 2])).then([adminDisabled(5)]);
  });

  it('lets only a super administrator disable or enable a super administrator', () => {
    given(adminStandingDecider, []).when(disable(1, true, [1, 2], false)).thenRefuses('super_admin_only', /only a super administrator/);
    given(adminStandingDecider, [adminDisabled(2)]).when(enable(2, true, false)).thenRefuses('super_admin_only');
    given(adminStandingDecider, [adminDisabled(2)]).when(enable(2, true, true)).then([adminEnabled(2)]);
    // An administrator of a role group is disabled and enabled by any holder of access.manage.
    given(adminStandingDecider, []).when(disable(7, false, [1], false)).then([adminDisabled(7)]);
    given(adminStandingDecider, [adminDisabled(7)]).when(enable(7, false, false)).then([adminEnabled(7)]);
  });

  it('refuses to disable the disabled or enable the enabled', () => {
    given(adminStandingDecider, [adminDisabled(7)]).when(disable(7, false, [1])).thenRefuses('admin_already_disabled');
    given(adminStandingDecider, []).when(enable(7)).thenRefuses('admin_already_enabled');
    given(adminStandingDecider, [adminDisabled(7), adminEnabled(7)]).when(enable(7)).thenRefuses('admin_already_enabled');
  });
});
