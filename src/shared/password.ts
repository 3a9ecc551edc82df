import { z } from 'zod';

/**
 * What a password must be, for members and administrators alike, and for ADMIN_PASSWORD in the
 * settings (src/config.ts): one rule, kept in the kernel so the settings need no slice.
 */
export const PASSWORD_MIN_LENGTH = 6;
// Argon2 accepts any length; the cap stops a multi-megabyte password from costing a hash.
export const PASSWORD_MAX_LENGTH = 128;

export const passwordSchema = z
  .string({ error: 'password is required and must be a string' })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`);
