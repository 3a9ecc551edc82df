import { z } from 'zod';

/** Who must sign in with a second factor (docs/accounts.md, "A second factor"). */
export const SECOND_FACTOR_POLICIES = ['none', 'administrators', 'access-managers', 'everyone'] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];

export const secondFactorSettingsSchema = {
  // Accounts that must have a second factor: none, administrators, access-managers (administrators
  // holding an access.* permission, super administrators too) or everyone; one without is sent to enrol.
  REQUIRE_SECOND_FACTOR: z
    .enum(SECOND_FACTOR_POLICIES, { error: 'must be none, administrators, access-managers or everyone' })
    .default('none'),
  // How the authenticator app names this service beside the account (the otpauth URI's issuer).
  TOTP_ISSUER: z.string().min(1).max(64).default('Platform API'),
};
