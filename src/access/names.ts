import { DomainError } from '../shared/domain/decider';
import { normaliseUsername } from '../member';

export { ADMIN_NAMES, ROLE_GROUP_NAMES } from './name-spaces';

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
