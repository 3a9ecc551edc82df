import { Grantor, SHELL } from '../../src/access/grantor';

/** Who asks, in the deciders' tests: the shell (super), or administrator `admin_id` holding `holds`. */
export const grantors = {
  SHELL,
  superAdmin: (admin_id: number): Grantor => ({ admin_id, is_super: true }),
  holder: (admin_id: number, holds: string[]): Grantor => ({ admin_id, is_super: false, holds }),
};
