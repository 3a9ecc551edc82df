import { memberGroupsProjection, roleGroupsProjection } from '../../src/access/projections/groups';
import { eventLog, project } from '../support/projection-spec';
import { accessEvents } from './events';
import { activeLog } from '../credential/fixtures';

describe('role_groups projection', () => {
  it('defines groups enabled, and follows disable and enable', () => {
    const log = eventLog()
      .roleGroup(
        0,
        accessEvents.roleGroupDefined({ role_id: 3, name: 'Reviewers', permissions: ['credential.review'] }),
      )
      .roleGroup(0, accessEvents.roleGroupDefined({ role_id: 4, name: 'Viewers', permissions: ['addon.view'] }));
    expect(project(roleGroupsProjection, log.events)).toEqual(
      new Map([
        ['3', { id: 3, name: 'Reviewers', permissions: ['credential.review'], enabled: true }],
        ['4', { id: 4, name: 'Viewers', permissions: ['addon.view'], enabled: true }],
      ]),
    );
    log.roleGroup(1, accessEvents.roleGroupDisabled(3));
    expect(project(roleGroupsProjection, log.events).get('3')).toMatchObject({ enabled: false });
    expect(project(roleGroupsProjection, log.events).get('4')).toMatchObject({ enabled: true });
    log.roleGroup(2, accessEvents.roleGroupEnabled(3));
    expect(project(roleGroupsProjection, log.events).get('3')).toMatchObject({ enabled: true });
  });

  it('ignores other streams', () => {
    const log = activeLog().memberGroup(
      3,
      accessEvents.memberGroupDefined({ member_group_id: 1, name: 'P', description: '' }),
    );
    expect(project(roleGroupsProjection, log.events).size).toBe(0);
  });
});

describe('member_groups projection', () => {
  it('has one document per defined member group', () => {
    const log = eventLog()
      .memberGroup(
        0,
        accessEvents.memberGroupDefined({ member_group_id: 1, name: 'Partners', description: 'Paying partners' }),
      )
      .memberGroup(1, accessEvents.memberGroupDefined({ member_group_id: 2, name: 'Trial', description: '' }))
      .roleGroup(2, accessEvents.roleGroupDefined({ role_id: 1, name: 'Admins', permissions: [] }));
    expect(project(memberGroupsProjection, log.events)).toEqual(
      new Map([
        ['1', { id: 1, name: 'Partners', description: 'Paying partners' }],
        ['2', { id: 2, name: 'Trial', description: '' }],
      ]),
    );
  });
});
