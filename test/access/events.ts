import { AdminEvent, AdminProfile } from '../../src/access/admin';
import { AdminStandingEvent } from '../../src/access/admin-standing';
import { MemberGroupDefinition, MemberGroupEvent } from '../../src/access/member-group';
import { RoleGroupDefinition, RoleGroupEvent } from '../../src/access/role-group';

/** Role group, member group and administrator events, as the tests build their histories and expectations. */
export const accessEvents = {
  roleGroupDefined: (definition: RoleGroupDefinition): RoleGroupEvent => ({
    type: 'RoleGroupDefined',
    data: definition,
  }),
  roleGroupEnabled: (role_id: number): RoleGroupEvent => ({ type: 'RoleGroupEnabled', data: { role_id } }),
  roleGroupDisabled: (role_id: number): RoleGroupEvent => ({ type: 'RoleGroupDisabled', data: { role_id } }),
  memberGroupDefined: (definition: MemberGroupDefinition): MemberGroupEvent => ({
    type: 'MemberGroupDefined',
    data: definition,
  }),
  adminCreated: (profile: AdminProfile): AdminEvent => ({ type: 'AdminCreated', data: profile }),
  /** Disabled by a super administrator unless `by` says who else. */
  adminDisabled: (admin_id: number, by = { is_super: true, holds: [] as string[] }): AdminStandingEvent => ({
    type: 'AdminDisabled',
    data: { admin_id, by },
  }),
  adminEnabled: (admin_id: number): AdminStandingEvent => ({ type: 'AdminEnabled', data: { admin_id } }),
};
