import { z } from 'zod';
import { oncePerList } from '../shared/http/schemas';

export const adminIdentitySchema = z
  .object({ id: z.int().min(1), username: z.string(), is_super: z.boolean(), role_id: z.int().min(1).nullable() })
  .meta({ id: 'Administrator' });

function schemasOver(registered: readonly string[]) {
  const permission = z.enum(registered as [string, ...string[]]);
  const roleGroup = z
    .object({ id: z.int().min(1), name: z.string(), permissions: z.array(permission) })
    .meta({ id: 'RoleGroup' });
  return {
    /** The contract's enum of the permissions `registered`. */
    permission,
    roleGroup,
    /** A role group as GET /role-groups lists it: disabled ones too. */
    roleGroupStanding: roleGroup.extend({ enabled: z.boolean() }).meta({ id: 'RoleGroupStanding' }),
    permissionListed: z.object({ name: permission, description: z.string() }).meta({ id: 'Permission' }),
  };
}

/** The schemas that list the permissions the slices registered (REGISTRY.permissions). */
export const roleGroupSchemas = oncePerList(schemasOver);

/** An administrator as GET /administrators lists it: no password, no hash. */
export const administratorSchema = adminIdentitySchema
  .extend({
    email: z.string().nullable(),
    enabled: z.boolean(),
    single_sign_on: z.boolean().meta({
      description: 'Created by single sign-on at its first sign-in: it signs in through the identity provider',
    }),
    second_factors: z
      .object({
        passkeys: z.int().min(0).meta({ description: 'How many passkeys it holds' }),
        totp: z.boolean().meta({ description: 'Whether an authenticator app (TOTP) is confirmed' }),
      })
      .meta({ id: 'AdministratorSecondFactors' }),
  })
  .meta({ id: 'AdministratorAccount' });

const oneTimePassword = z.object({
  password: z.string().meta({ description: 'A one-time password: shown in this answer only, never again' }),
});

export const createdAdministratorSchema = administratorSchema
  .extend({
    password: oneTimePassword.shape.password.nullable().meta({
      description: 'A one-time password, shown in this answer only; null when an invitation was mailed instead',
    }),
    invitation_sent_to: z.string().nullable().meta({
      description:
        'Where the link to choose a password was mailed (when the service sends mail and email was given); null: hand over the password',
    }),
  })
  .meta({ id: 'CreatedAdministrator' });

export const passwordResetSchema = oneTimePassword
  .extend({ id: z.int().min(1) })
  .meta({ id: 'AdministratorPasswordReset' });
