import { z } from 'zod';
import type { EventOf, EventSchemas, EventUpcasters } from '../shared/domain/events';

/*
 * The events of administrators' accounts and of their sign-ins, schemas alone: what the slices'
 * events registry (src/event-registry.ts) loads to read them, without the deciders and commands
 * (./admin.ts, ./access-log.ts) and what those reach.
 */

const adminProfileSchema = z.object({
  admin_id: z.int().min(1),
  username: z.string(),
  /** Super administrators hold every permission and belong to no role group. */
  is_super: z.boolean(),
  role_id: z.int().min(1).nullable(),
  password_hash: z.string(),
  /** Where the digest of new applications and scope requests goes; null: no mail. */
  email: z.string().nullable(),
});

export type AdminProfile = z.infer<typeof adminProfileSchema>;

const newPasswordSchema = z.object({ admin_id: z.int().min(1), password_hash: z.string() });

const invitationSchema = z.object({ admin_id: z.int().min(1), token_digest: z.string(), expires_at: z.iso.datetime() });

export const adminEventSchemas = {
  AdminCreated: adminProfileSchema,
  /** The administrator changed their own password. */
  AdminPasswordChanged: newPasswordSchema,
  /** Another administrator gave them a one-time password. */
  AdminPasswordReset: newPasswordSchema,
  /** A link to choose a password was mailed to them: only the digest of its token is kept. */
  AdminInvited: invitationSchema,
  /** They chose their password through the mailed link, which is spent. */
  AdminInvitationAccepted: newPasswordSchema,
} satisfies EventSchemas;

/** AdminCreated v1 had no email: those administrators are mailed nothing. */
export const adminUpcasters: EventUpcasters = { AdminCreated: [(v1) => ({ ...v1, email: null })] };

export type AdminEvent = EventOf<typeof adminEventSchemas>;

/**
 * Who signed in to the console, who failed to, and whose sessions ended (docs/administrators.md,
 * "Access is audited"). These record what happened rather than decide anything: no decider folds them.
 */
export const accessLogEventSchemas = {
  AdministratorSignedIn: z.object({ admin_id: z.int().min(1), address: z.string() }),
  /**
   * `count` wrong passwords (or unknown usernames) for `username` from `address` in the minute
   * starting at `minute`: one event a minute, however many tries (./sign-in-failures.ts).
   */
  AdministratorSignInFailed: z.object({
    username: z.string(),
    address: z.string(),
    minute: z.iso.datetime(),
    count: z.int().min(1),
  }),
  /** `sessions` ended: by the administrator's own sign-out, or by a disable. */
  AdministratorSignedOut: z.object({
    admin_id: z.int().min(1),
    reason: z.enum(['sign_out', 'disabled']),
    sessions: z.int().min(0),
  }),
} satisfies EventSchemas;

export type AccessLogEvent = EventOf<typeof accessLogEventSchemas>;
