import { Refused } from './envelope';

/** Whole seconds, rounded up and never 0: Retry-After 0 invites a retry that is refused again. */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** A wait as a person reads it: seconds while short, else whole minutes (rounded up), never "900 s". */
function spoken(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/** A 429 that says when to try again, in the message (for people) and in Retry-After (seconds, for programs). */
export function tooManyRequests(error: string, why: string, retryInMs: number): Refused {
  const wait = wholeSeconds(retryInMs);
  return { status: 429, error, message: `${why}: retry in ${spoken(wait)}`, headers: { 'Retry-After': String(wait) } };
}
