import { z } from 'zod';
import { secondFactorSettingsSchema } from './config-second-factor';

/** Single sign-on for administrators (src/access/sso, docs/administrators.md): every one optional, off without OIDC_ISSUER_URL. */
export const ssoSettingsSchema = {
  // Single sign-on for administrators through this OpenID provider (docs/administrators.md); unset: off.
  OIDC_ISSUER_URL: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // Unset: <PUBLIC_URL>/api/v1/admin/sso/callback.
  OIDC_REDIRECT_URL: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  // Claim values to role-group names, e.g. platform-ops=Operators,platform-audit=Auditors.
  OIDC_ROLE_GROUPS: z
    .string()
    .regex(/^[^=,]+=[^=,]+(,[^=,]+=[^=,]+)*$/, {
      error: 'must be claim values and role-group names, e.g. platform-ops=Operators,platform-audit=Auditors',
    })
    .optional(),
  // The claim value that makes a super administrator; unset: none does.
  OIDC_SUPER_GROUP: z.string().min(1).optional(),
  OIDC_DISPLAY_NAME: z.string().min(1).default('single sign-on'),
  // Administrators sign in through the provider only, but for a break-glass super administrator's password.
  OIDC_ONLY: z.enum(['true', 'false']).default('false'),
};

/** How administrators and members sign in, beyond their passwords: single sign-on and the second factor. */
export const signInSettingsSchema = { ...ssoSettingsSchema, ...secondFactorSettingsSchema };
