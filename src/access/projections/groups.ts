import { MemberGroupDefinition } from '../member-group';
import { Permission } from '../permissions';
import { RoleGroupDefinition } from '../role-group';
import { Projection } from '../../shared/projections/projection';

export interface RoleGroupDocument {
  id: number;
  name: string;
  permissions: Permission[];
  enabled: boolean;
}

export const roleGroupsProjection: Projection<RoleGroupDocument> = {
  name: 'role_groups',
  version: 1,
  collection: { name: 'role_groups', indexes: ['enabled'] },

  documentIds: (event) => (event.stream.startsWith('role_group-') ? [String(event.data.role_id)] : []),

  evolve(doc, event) {
    switch (event.type) {
      case 'RoleGroupDefined': {
        const group = event.data as unknown as RoleGroupDefinition;
        return { id: group.role_id, name: group.name, permissions: group.permissions, enabled: true };
      }
      case 'RoleGroupEnabled':
        return doc && { ...doc, enabled: true };
      case 'RoleGroupDisabled':
        return doc && { ...doc, enabled: false };
      default:
        return doc;
    }
  },
};

export interface MemberGroupDocument {
  id: number;
  name: string;
  description: string;
}

export const memberGroupsProjection: Projection<MemberGroupDocument> = {
  name: 'member_groups',
  version: 1,
  collection: { name: 'member_groups', indexes: [] },

  documentIds: (event) => (event.type === 'MemberGroupDefined' ? [String(event.data.member_group_id)] : []),

  evolve(_doc, event) {
    const group = event.data as unknown as MemberGroupDefinition;
    return { id: group.member_group_id, name: group.name, description: group.description };
  },
};
