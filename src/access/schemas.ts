import { z } from 'zod';
import { PERMISSIONS } from './permissions';

export const adminIdentitySchema = z
  .object({ id: z.int().min(1), username: z.string(), is_super: z.boolean(), role_id: z.int().min(1).nullable() })
  .meta({ id: 'Administrator' });

export const roleGroupSchema = z
  .object({ id: z.int().min(1), name: z.string(), permissions: z.array(z.enum(PERMISSIONS)) })
  .meta({ id: 'RoleGroup' });
