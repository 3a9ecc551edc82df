import type { Schemas } from '../api/client';

type Keyed = Pick<Schemas['Credential'], 'status' | 'expires_at'>;

/** Approved or active: there is a key (or one ready to claim), and so an expiry that means something. */
export const hasKey = (c: Keyed): boolean => c.status === 'approved' || c.status === 'active';

/**
 * When an approved or active credential's key stopped being accepted, or null while it is. Expiry
 * is a time, not a decision: the status stays "active" past it, so the words must say it.
 */
export function expiredAt(c: Keyed, now = Date.now()): string | null {
  return hasKey(c) && c.expires_at && Date.parse(c.expires_at) <= now ? c.expires_at : null;
}

/** A credential's status in the words and colour the member's dashboard uses: "active, expired" once the key is refused. */
export function statusOf(c: Keyed, now = Date.now()): { words: string; tone: string } {
  return expiredAt(c, now) ? { words: `${c.status}, expired`, tone: 'expired' } : { words: c.status, tone: c.status };
}
