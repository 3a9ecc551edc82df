import { z } from 'zod';
import { PERMISSIONS } from '../../access/permissions';
import { Refusal } from './endpoints';

/**
 * The response data the service answers, as zod schemas: the OpenAPI document is generated from
 * them and the end-to-end tests check real answers against that document.
 */
const instant = z.iso.datetime();
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

export const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });

export const csrfTokenSchema = z.object({ csrf_token: z.string() }).meta({ id: 'CsrfToken' });

export const credentialStatus = z.enum(['none', 'pending', 'approved', 'rejected', 'active', 'revoked']);
export const scopeStatus = z.enum(['pending', 'approved', 'rejected', 'revoked']);

const credentialFields = {
  status: credentialStatus,
  apiid: nullable(z.string()),
  applied_at: nullable(instant),
  reviewed_at: nullable(instant),
  reject_reason: nullable(z.string()),
  claimed_at: nullable(instant),
  key_rotated_at: nullable(instant),
  revoked_at: nullable(instant),
  revoke_reason: nullable(z.string()),
};

/** The member's own credential, as the dashboard shows it. */
export const credentialSchema = z.object(credentialFields).meta({ id: 'Credential' });

/** A credential application, as administrators review it. */
export const applicationSchema = z
  .object({ member_id: z.int().min(1), username: z.string(), ...credentialFields, status: credentialStatus.exclude(['none']) })
  .meta({ id: 'CredentialApplication' });

// A string, not the registry's enum: decisions on a scope later retired stay readable.
const scopeName = z.string().meta({ description: 'Scope name, e.g. addons.read' });

const scopeReviewFields = {
  status: scopeStatus,
  reason: z.string().meta({ description: "The member's purpose of use" }),
  requested_at: instant,
  reviewed_at: nullable(instant),
  reject_reason: nullable(z.string()),
  revoked_at: nullable(instant),
  revoke_reason: nullable(z.string()),
};

/** One scope of the member's credential, as the dashboard shows it. */
export const scopeSchema = z.object({ name: scopeName, ...scopeReviewFields }).meta({ id: 'Scope' });

/** One scope request, as administrators review it. */
export const scopeRequestSchema = z
  .object({ member_id: z.int().min(1), scope: scopeName, ...scopeReviewFields })
  .meta({ id: 'ScopeRequest' });

export const adminIdentitySchema = z
  .object({ id: z.int().min(1), username: z.string(), is_super: z.boolean(), role_id: nullable(z.int().min(1)) })
  .meta({ id: 'Administrator' });

export const roleGroupSchema = z
  .object({ id: z.int().min(1), name: z.string(), permissions: z.array(z.enum(PERMISSIONS)) })
  .meta({ id: 'RoleGroup' });

/** Every refusal: the status again in `code`, a stable reason in `data.error`, and what to fix in `message`. */
export const refusalSchema = z
  .object({
    code: z.int(),
    message: z.string(),
    data: z.looseObject({
      error: z.string().meta({ description: 'Stable snake_case reason' }),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Refusal' });

/** The envelope of every JSON answer (specification §2.1). */
export const envelopeOf = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), message: z.string(), data });

export const wrongPassword: Refusal = { status: 401, when: 'the username or the password is wrong' };

/** Optimistic concurrency gave up: the aggregate kept changing under simultaneous writers. */
export const concurrentChange: Refusal = { status: 409, when: 'the resource kept changing under simultaneous requests: retry' };
