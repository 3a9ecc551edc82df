import { z } from 'zod';
import type { EventOf, EventSchemas } from '../../shared/domain/events';

/**
 * What single sign-on records on an administrator's own stream (`admin-<username>`): the
 * administrator it created at a first sign-in, and the role group the provider's claims put it in
 * when they changed. No password is kept: such an administrator signs in through the provider only.
 */
export const ssoEventSchemas = {
  AdministratorProvisioned: z.object({
    admin_id: z.int().min(1),
    username: z.string(),
    is_super: z.boolean(),
    role_id: z.int().min(1).nullable(),
    /** The provider (its issuer) and the subject it names the person by. */
    issuer: z.string(),
    subject: z.string(),
  }),
  AdministratorRoleGroupSet: z.object({
    admin_id: z.int().min(1),
    is_super: z.boolean(),
    role_id: z.int().min(1).nullable(),
  }),
} satisfies EventSchemas;

export type SsoEvent = EventOf<typeof ssoEventSchemas>;
