import { MemberGroupEvent } from '../member-group';
import { RoleGroupEvent, roleGroupEventSchemas } from '../role-group';
import { typesOf } from '../../shared/domain/events';
import { Projection } from '../../shared/projections/projection';

export interface RoleGroupDocument {
  id: number;
  name: string;
  permissions: string[];
  enabled: boolean;
}

export const roleGroupsProjection: Projection<RoleGroupDocument, RoleGroupEvent> = {
  name: 'role_groups',
  version: 1,
  collection: { name: 'role_groups', indexes: ['enabled'] },

  handles: typesOf(roleGroupEventSchemas),
  documentIds: (event) => [String(event.data.role_id)],

  evolve(doc, event) {
    switch (event.type) {
      case 'RoleGroupDefined': {
        const group = event.data;
        return { id: group.role_id, name: group.name, permissions: group.permissions, enabled: true };
      }
      case 'RoleGroupEnabled':
        return doc && { ...doc, enabled: true };
      case 'RoleGroupDisabled':
        return doc && { ...doc, enabled: false };
    }
  },
};

export interface MemberGroupDocument {
  id: number;
  name: string;
  description: string;
}

export const memberGroupsProjection: Projection<MemberGroupDocument, MemberGroupEvent> = {
  name: 'member_groups',
  version: 1,
  collection: { name: 'member_groups', indexes: [] },

  handles: ['MemberGroupDefined'],
  documentIds: (event) => [String(event.data.member_group_id)],

  evolve: (_doc, { data: group }) => ({ id: group.member_group_id, name: group.name, description: group.description }),
};
