import { ApprovalExpiry, assertWithinLifetime, expiresAtFor, expiryField } from '../expiry';

/** What an approval's expiry is judged against: the default lifetime and the furthest allowed. */
export interface ApprovalLimits {
  /** KEY_LIFETIME_DAYS: how long a key lives when the approval names no expiry; null: forever. */
  keyLifetimeDays: number | null;
  /** MAX_KEY_LIFETIME_DAYS: how far ahead an approval may set the expiry. */
  maxKeyLifetimeDays: number;
}

/**
 * The ApproveCredential command for an approval with this expiry, decided at `now`: the one
 * place the single approval, the decisions in bulk and an approval rule turn an expiry into a
 * command (an expiry too far ahead is refused here, expiry_too_far).
 */
export function approveCommand(limits: ApprovalLimits, member_id: number, expiry: ApprovalExpiry, now: Date) {
  const expires_at = expiresAtFor(expiry, now, limits.keyLifetimeDays);
  // Never (KEY_LIFETIME_DAYS unset, or `expires_at: null` said outright) is the reviewer's choice
  // the console offers beside the presets: only a given date or number of days is bounded.
  if (expires_at !== null && (expiry.expires_at !== undefined || expiry.expires_in_days !== undefined))
    assertWithinLifetime(expires_at, now, limits.maxKeyLifetimeDays, expiryField(expiry));
  return { type: 'ApproveCredential' as const, data: { member_id, expires_at, now: now.toISOString() } };
}
