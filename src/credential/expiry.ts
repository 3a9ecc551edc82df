import { z } from 'zod';
import { fieldError } from '../shared/domain/field-error';

/**
 * Key expiry, in one place: what an approval may say about it, when the key it leads to expires,
 * and whether a key has expired at a given moment.
 */
export const MAX_LIFETIME_DAYS = 3650;

const DAY_MS = 86_400_000;

/** An instant, or a number of days from now: the fields of an expiry. */
export const expiryFields = {
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 instant with a zone, e.g. 2027-01-31T00:00:00Z' })
    .optional(),
  expires_in_days: z
    .number({ error: 'expires_in_days must be a number of days' })
    .int('expires_in_days must be a whole number of days')
    .min(1, 'expires_in_days must be at least 1')
    .max(MAX_LIFETIME_DAYS, `expires_in_days must be at most ${MAX_LIFETIME_DAYS}`)
    .optional(),
};

/**
 * The expiry fields as far as MAX_KEY_LIFETIME_DAYS (`maxDays`) reaches: the contract bounds
 * expires_in_days where assertWithinLifetime refuses, which answers its own reason, expiry_too_far.
 */
export const expiryFieldsWithin = (maxDays: number) => ({
  ...expiryFields,
  expires_in_days: expiryFields.expires_in_days.meta({
    maximum: maxDays,
    description: `At most MAX_KEY_LIFETIME_DAYS (${maxDays} here)`,
  }),
});

/** The rule an approval and an extension request share. */
export const notBoth = (body: { expires_at?: string | null; expires_in_days?: number }): boolean =>
  body.expires_at === undefined || body.expires_in_days === undefined;
export const NOT_BOTH = 'give expires_at or expires_in_days, not both';

/**
 * What an administrator may add to an approval: an instant, or a number of days from now (not
 * both), or `expires_at: null` for a key that never expires whatever KEY_LIFETIME_DAYS says.
 */
export const approvalExpirySchema = (maxDays: number) =>
  z
    .strictObject({
      ...expiryFieldsWithin(maxDays),
      expires_at: expiryFields.expires_at
        .unwrap()
        .nullable()
        .optional()
        .meta({ description: 'When the key expires; null: never, whatever KEY_LIFETIME_DAYS says' }),
    })
    .refine(notBoth, { error: NOT_BOTH })
    // The refinement, for a client generated from the contract.
    .meta({ not: { required: ['expires_at', 'expires_in_days'] } });
export type ApprovalExpiry = z.infer<ReturnType<typeof approvalExpirySchema>>;

/** When a key approved at `now` expires: the instant given, or the days given, or the default lifetime; null for never. */
export function expiresAtFor(expiry: ApprovalExpiry, now: Date, defaultDays: number | null): string | null {
  if (expiry.expires_at === null) return null;
  if (expiry.expires_at !== undefined) return new Date(expiry.expires_at).toISOString();
  const days = expiry.expires_in_days ?? defaultDays;
  return days === null ? null : new Date(now.getTime() + days * DAY_MS).toISOString();
}

/** The refusal of an expiry too far ahead, as the endpoints declare it. */
export const expiryTooFar = {
  status: 422,
  reasons: ['expiry_too_far'],
  when: 'the expiry is more than MAX_KEY_LIFETIME_DAYS (730 by default) ahead: expiry_too_far',
} as const;

/**
 * Refuses an expiry further ahead than MAX_KEY_LIFETIME_DAYS (`maxDays`) from `now`: a key that
 * outlives everyone who approved it is a key nobody reviews again.
 */
export function assertWithinLifetime(
  expiresAt: string | null,
  now: Date,
  maxDays: number,
  /** The field that gave it, named in the refusal. */
  field: 'expires_at' | 'expires_in_days' = 'expires_at',
): void {
  const latest = now.getTime() + maxDays * DAY_MS;
  if (expiresAt !== null && Date.parse(expiresAt) <= latest) return;
  const asked = expiresAt === null ? 'never' : expiresAt;
  throw fieldError(
    'expiry_too_far',
    field,
    `the expiry (${asked}) is more than ${maxDays} days ahead: choose one until ${new Date(latest).toISOString()} at the latest`,
  );
}

/** Whether a key expiring at `expiresAt` (null: never) has expired at `at` (an instant or epoch milliseconds). */
export function hasExpiredAt(expiresAt: string | null, at: string | number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= (typeof at === 'number' ? at : Date.parse(at));
}

/** Whether a credential was past its expiry at `at`: only an approved or active one holds a key that can expire. */
export function isExpiredAt(credential: { status: string; expires_at: string | null }, at: string): boolean {
  return (
    (credential.status === 'approved' || credential.status === 'active') && hasExpiredAt(credential.expires_at, at)
  );
}

/** Which of the two expiry fields a body gave: the one a refusal of its expiry names. */
export const expiryField = (body: { expires_in_days?: number }): 'expires_at' | 'expires_in_days' =>
  body.expires_in_days !== undefined ? 'expires_in_days' : 'expires_at';
