import { Refused } from './envelope';

/** Whole seconds, rounded up and never 0: Retry-After 0 invites a retry that is refused again. */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** A 429 that says when to try again, in the message and in Retry-After. */
export function tooManyRequests(error: string, why: string, retryInMs: number): Refused {
  const wait = wholeSeconds(retryInMs);
  return { status: 429, error, message: `${why}: retry in ${wait} s`, headers: { 'Retry-After': String(wait) } };
}
