import { z } from 'zod';

export const adminIdentitySchema = z
  .object({ id: z.int().min(1), username: z.string(), is_super: z.boolean(), role_id: z.int().min(1).nullable() })
  .meta({ id: 'Administrator' });

function schemasOver(registered: readonly string[]) {
  const permission = z.enum(registered as [string, ...string[]]);
  const roleGroup = z.object({ id: z.int().min(1), name: z.string(), permissions: z.array(permission) }).meta({ id: 'RoleGroup' });
  return {
    /** The contract's enum of the permissions `registered`. */
    permission,
    roleGroup,
    /** A role group as GET /role-groups lists it: disabled ones too. */
    roleGroupStanding: roleGroup.extend({ enabled: z.boolean() }).meta({ id: 'RoleGroupStanding' }),
    permissionListed: z.object({ name: permission, description: z.string() }).meta({ id: 'Permission' }),
  };
}

const built = new Map<string, ReturnType<typeof schemasOver>>();

/**
 * The schemas that list the permissions the slices registered (REGISTRY.permissions), built once
 * per list: the contract names each by its id, which two copies could not share.
 */
export function roleGroupSchemas(registered: readonly string[]): ReturnType<typeof schemasOver> {
  const key = registered.join(',');
  const schemas = built.get(key) ?? schemasOver(registered);
  built.set(key, schemas);
  return schemas;
}

/** An administrator as GET /administrators lists it: no password, no hash. */
export const administratorSchema = adminIdentitySchema
  .extend({ email: z.string().nullable(), enabled: z.boolean() })
  .meta({ id: 'AdministratorAccount' });

const oneTimePassword = z.object({ password: z.string().meta({ description: 'A one-time password: shown in this answer only, never again' }) });

export const createdAdministratorSchema = administratorSchema
  .extend({
    password: oneTimePassword.shape.password.nullable().meta({ description: 'A one-time password, shown in this answer only; null when an invitation was mailed instead' }),
    invitation_sent_to: z.string().nullable().meta({ description: 'Where the link to choose a password was mailed (when the service sends mail and email was given); null: hand over the password' }),
  })
  .meta({ id: 'CreatedAdministrator' });

export const passwordResetSchema = oneTimePassword.extend({ id: z.int().min(1) }).meta({ id: 'AdministratorPasswordReset' });
