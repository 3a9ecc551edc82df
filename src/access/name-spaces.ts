import { NameSpace } from '../shared/domain/name-claims';

/**
 * Administrators' usernames and role-group names, each unique as it reads
 * (src/shared/domain/name-claims.ts). Both are shown to holders of access.manage, who may list
 * them, so a refusal names the look-alike.
 */
export const ADMIN_NAMES: NameSpace = {
  category: 'admin_name',
  claimed: 'AdministratorNameClaimed',
  released: 'AdministratorNameReleased',
  field: 'username',
};

export const ROLE_GROUP_NAMES: NameSpace = {
  category: 'role_group_name',
  claimed: 'RoleGroupNameClaimed',
  released: 'RoleGroupNameReleased',
  field: 'name',
};
