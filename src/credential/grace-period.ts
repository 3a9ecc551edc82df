import { z } from 'zod';

/**
 * The rotation grace period, in one place: how long a rotated-away key is still accepted, which
 * keys a key ring keeps, and whether a key is accepted at a given moment.
 */
export const MAX_GRACE_SECONDS = 86_400;

/** From 0 (the old key stops at once) to one day; the API takes it as is, and the decider checks it again. */
export const graceSecondsSchema = z
  .number({ error: 'grace_seconds must be a number of seconds' })
  .int('grace_seconds must be a whole number of seconds')
  .min(0, 'grace_seconds must be at least 0')
  .max(MAX_GRACE_SECONDS, `grace_seconds must be at most ${MAX_GRACE_SECONDS} (one day)`);

/** Until when the previous key is accepted after a rotation at `now`; null when it stops at once. */
export function previousKeyValidUntil(now: string, graceSeconds: number): string | null {
  return graceSeconds === 0 ? null : new Date(Date.parse(now) + graceSeconds * 1000).toISOString();
}

export interface AcceptedKey {
  /** SHA-256 of the key, hex. */
  digest: string;
  /** When a rotated-away key stops being accepted; null for the current key. */
  valid_until: string | null;
}

/** Whether a key is accepted at `at` (an instant or epoch milliseconds): the current one always, a rotated-away one until its grace period ends. */
export function isAcceptedAt(key: AcceptedKey, at: string | number): boolean {
  return key.valid_until === null || Date.parse(key.valid_until) > (typeof at === 'number' ? at : Date.parse(at));
}

/** The keys a rotation at `at` keeps beside the new one: those of earlier rotations still inside their grace period. */
export function stillInGrace(keys: AcceptedKey[], at: string): AcceptedKey[] {
  return keys.filter((key) => key.valid_until !== null && isAcceptedAt(key, at));
}
