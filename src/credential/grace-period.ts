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

/** A rotated-away key: accepted until its grace period ends. */
export interface KeyInGrace extends AcceptedKey {
  valid_until: string;
}

const isRotatedAway = (key: AcceptedKey): key is KeyInGrace => key.valid_until !== null;

/** The rotated-away keys still inside their grace period at `at`. */
function stillInGrace(keys: AcceptedKey[], at: string): KeyInGrace[] {
  return keys.filter((key): key is KeyInGrace => isRotatedAway(key) && isAcceptedAt(key, at));
}

/**
 * Rotated-away keys older than the previous one that a rotation leaves accepted: enough for a
 * rotation sent twice (a retry) while partners still roll over, without a member holding any
 * number of live keys.
 */
export const MAX_EARLIER_KEYS = 2;

/**
 * The keys of earlier rotations (`keys`, newest first) still accepted after a rotation at `at`
 * whose previous key is accepted until `until` (null: it stops at once). None outlives the
 * previous key, so a rotation with no grace period stops every older key too, and only the
 * MAX_EARLIER_KEYS most recent stay.
 */
export function earlierKeysAfterRotation(keys: KeyInGrace[], at: string, until: string | null): KeyInGrace[] {
  if (until === null) return [];
  return stillInGrace(keys, at)
    .slice(0, MAX_EARLIER_KEYS)
    .map((key) => (Date.parse(key.valid_until) > Date.parse(until) ? { digest: key.digest, valid_until: until } : key));
}

/** What a KeyRotated event says of the keys it rotated away (src/credential/decider.ts). */
export interface RotatedAway {
  previous_key_digest: string;
  previous_key_valid_until: string | null;
  earlier_keys: KeyInGrace[] | null;
}

/**
 * The rotated-away keys still accepted after a rotation, newest first: the previous key while in
 * grace, then the earlier keys the rotation kept. A rotation recorded before rotations decided the
 * earlier keys (null) kept every one of `before` still in grace at its time `at`; a fresh decision
 * always decides them, so it needs no time.
 */
export function keysInGraceAfterRotation(
  rotation: RotatedAway,
  before: AcceptedKey[],
  at: string | undefined,
): KeyInGrace[] {
  const { previous_key_digest, previous_key_valid_until, earlier_keys } = rotation;
  const previous =
    previous_key_valid_until === null ? [] : [{ digest: previous_key_digest, valid_until: previous_key_valid_until }];
  const earlier = earlier_keys ?? (at === undefined ? before.filter(isRotatedAway) : stillInGrace(before, at));
  return [...previous, ...earlier];
}
