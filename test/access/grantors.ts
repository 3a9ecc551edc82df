import { Grantor, SHELL } from '../../src/access/grantor';

/** The role group of the deciders' tests' administrators, unless a test says another. */
export const GROUP = 3;

/**
 * Who asks, in the deciders' tests: the shell (super), or administrator `admin_id` of role group
 * `role_id` holding `holds`, webhook.manage held in its own group only, as the registry says.
 */
export const grantors = {
  SHELL,
  superAdmin: (admin_id: number): Grantor => ({ admin_id, is_super: true }),
  holder: (admin_id: number, holds: string[], role_id = GROUP): Grantor => ({
    admin_id,
    is_super: false,
    holds,
    role_id,
    scoped: ['webhook.manage'],
  }),
};
