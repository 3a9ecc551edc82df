import { DomainError } from '../shared/domain/decider';
import { NameSpace } from '../shared/domain/name-claims';
import { normaliseUsername } from '../member';

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

export const adminUsernameTaken =
  (username: string) =>
  (taken: string): DomainError =>
    new DomainError(
      'admin_username_taken',
      normaliseUsername(taken) === normaliseUsername(username)
        ? `an administrator "${username}" already exists: choose another username`
        : `the username "${username}" reads like that of the administrator "${taken}": choose another username`,
    );

export const roleGroupNameTaken = (taken: string): DomainError =>
  new DomainError(
    'role_group_name_taken',
    `the role group "${taken}" already has this name, or one that reads like it: choose another name`,
  );
