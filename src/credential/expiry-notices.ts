import { hasExpiredAt } from './expiry';

/** What a credential's member was already told about its expiry: the nearest reminder, and whether it expired. */
export interface ExpiryNotices {
  /** When the expiry was set (the approval or extension); null when not known. */
  set_at: string | null;
  /** The smallest number of days before the expiry a reminder was given for; null: none yet. */
  reminded_days: number | null;
  expired: boolean;
}

/** Nothing told yet about an expiry set at `set_at`. */
export const noNotices = (set_at: string | null = null): ExpiryNotices => ({
  set_at,
  reminded_days: null,
  expired: false,
});

type Notice =
  | { type: 'CredentialExpiring'; data: { member_id: number; expires_at: string; days_before: number } }
  | { type: 'CredentialExpired'; data: { member_id: number; expires_at: string } };

const DAY_MS = 86_400_000;

export function noticesAfter(notices: ExpiryNotices, event: Notice): ExpiryNotices {
  if (event.type === 'CredentialExpired') return { ...notices, expired: true };
  return { ...notices, reminded_days: event.data.days_before };
}

/**
 * The notices due at `now`: the expiry once it passed; otherwise the reminder of the nearest
 * threshold reached and not yet reminded of. One reminder at a time, and only of thresholds the
 * key lived longer than: a key approved for two days with reminders at 30, 7 and 1 days is
 * reminded once, a day before, not at once that it expires "in 7 days".
 */
export function expiryNoticesDue(
  member_id: number,
  expires_at: string,
  told: ExpiryNotices,
  now: string,
  reminderDays: number[],
): Notice[] {
  if (told.expired) return [];
  if (hasExpiredAt(expires_at, now)) return [{ type: 'CredentialExpired', data: { member_id, expires_at } }];
  const left = Date.parse(expires_at) - Date.parse(now);
  const lifetime = told.set_at === null ? Infinity : Date.parse(expires_at) - Date.parse(told.set_at);
  const reached = reminderDays.filter((days) => left <= days * DAY_MS && lifetime > days * DAY_MS);
  if (reached.length === 0) return [];
  const nearest = Math.min(...reached);
  // Reminded already of this threshold or a nearer one, or the expiry is nearer than the next threshold below.
  if (told.reminded_days !== null && told.reminded_days <= nearest) return [];
  return [{ type: 'CredentialExpiring', data: { member_id, expires_at, days_before: nearest } }];
}
