import { HttpError } from './envelope';

/** Whole seconds, rounded up and never 0: Retry-After 0 invites a retry that is refused again. */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** A 429 that says when to try again, in the message and in Retry-After. */
export function tooManyRequests(error: string, why: string, retryInMs: number): HttpError {
  const wait = wholeSeconds(retryInMs);
  return new HttpError(429, error, `${why}: retry in ${wait} s`, undefined, { 'Retry-After': String(wait) });
}
