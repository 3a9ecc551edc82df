import { z } from 'zod';
import type { EventOf, EventSchemas } from '../../shared/domain/events';

/** Whose second factor: a developer member's or an administrator's (each has a stream per account id). */
export const accountSchema = z.object({
  side: z.enum(['member', 'admin']),
  account_id: z.int().min(1),
  username: z.string(),
});

/**
 * What an account's second-factor stream (`second-factor-<side>-<id>`) records. The TOTP seed is
 * sealed (never in clear), and the recovery codes are kept as digests; both names are secret
 * fields the audit answers leave out (src/shared/domain/chain.ts). Each code used at a sign-in is
 * recorded with its time step: a step at or before the last one used is refused, so a code works once.
 */
export const secondFactorEventSchemas = {
  TotpEnrolmentBegun: accountSchema.extend({ sealed_secret: z.string() }),
  TotpEnrolled: accountSchema.extend({
    /** The step of the code that confirmed it: that code is used. */
    step: z.int().min(0),
    recovery_code_digests: z.array(z.string()),
  }),
  TotpCodeUsed: accountSchema.extend({ step: z.int().min(0) }),
  RecoveryCodeUsed: accountSchema.extend({ recovery_code_digest: z.string(), remaining: z.int().min(0) }),
  SecondFactorRemoved: accountSchema,
} satisfies EventSchemas;

export type SecondFactorEvent = EventOf<typeof secondFactorEventSchemas>;
export type Account = z.infer<typeof accountSchema>;
