import type { DocumentStore } from '../stores/ports';

/**
 * One outbound message (a webhook delivery, a mail), attempt after attempt: pending until the
 * first attempt, failed while retries remain, then dead; delivered once taken. Each message has
 * its own schedule, so none ever holds back another (docs/notifications.md, Dead messages).
 */
export const OUTBOX_STATUSES = ['pending', 'delivered', 'failed', 'dead'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export interface OutboxEntry {
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  /** Why the last attempt failed; null once delivered. Absent in entries written before it was kept. */
  cause?: string | null;
  /** The event's position, and how many times this document was written: together its write position. */
  event_position: string;
  revision: number;
}

/** How an attempt ended: taken, or refused for a reason, permanently (no retry can succeed) or not. */
export type Attempt = { delivered: true } | { delivered: false; cause: string; permanent: boolean };

/** Each write of an entry lands after the previous one, under the store's position guard. */
export const writePosition = (e: OutboxEntry): string => `${e.event_position}~${String(e.revision).padStart(6, '0')}`;

/**
 * The entry after an attempt at `now`, by the retry schedule (waits in ms): after the last wait,
 * or at once for a permanent refusal, it is dead with its cause.
 */
export function afterAttempt<E extends OutboxEntry>(entry: E, attempt: Attempt, now: number, schedule: number[]): E {
  const attempts = entry.attempts + 1;
  const base = { ...entry, attempts, revision: entry.revision + 1 };
  if (attempt.delivered)
    return {
      ...base,
      status: 'delivered',
      delivered_at: new Date(now).toISOString(),
      next_attempt_at: null,
      cause: null,
    };
  const wait = attempt.permanent ? undefined : schedule[attempts - 1];
  if (wait === undefined) return { ...base, status: 'dead', next_attempt_at: null, cause: attempt.cause };
  return { ...base, status: 'failed', next_attempt_at: new Date(now + wait).toISOString(), cause: attempt.cause };
}

/**
 * An entry an administrator asked to try again now; a delivered one is sent again too. One more
 * attempt, not a new schedule: a dead entry that fails again is dead again, with the new cause.
 */
export const retried = <E extends OutboxEntry>(e: E, now: number): E => ({
  ...e,
  status: 'pending',
  next_attempt_at: new Date(now).toISOString(),
  revision: e.revision + 1,
});

/** The entries of `collection` whose next attempt is due at `now`, in the order of the log. */
export async function dueEntries<E extends OutboxEntry>(
  documents: DocumentStore,
  collection: string,
  now: number,
): Promise<E[]> {
  const open = [
    ...(await documents.find<E>(collection, { status: 'pending' })),
    ...(await documents.find<E>(collection, { status: 'failed' })),
  ].map((d) => d.doc);
  return open
    .filter((e) => e.next_attempt_at !== null && Date.parse(e.next_attempt_at) <= now)
    .sort((a, b) => (a.event_position < b.event_position ? -1 : a.event_position > b.event_position ? 1 : 0));
}
