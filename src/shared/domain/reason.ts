import { z } from 'zod';
import { DomainError } from './decider';

/** docs/rules.md, "Limits": a scope request's reason is at most 500 characters; the same for decisions. */
const REASON_MAX_LENGTH = 500;

// What shows nothing: spaces, controls (NUL), format characters (zero-width space, joiners, bidi
// marks, soft hyphen) and the blank letters that fonts draw empty (Hangul fillers, braille blank).
const INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Z}\u115f\u1160\u2800\u3164\uffa0]*$/u;

export const reasonSchema = z
  .string({ error: 'reason is required and must be a string' })
  .trim()
  .min(1, 'reason must not be empty: say why')
  .max(REASON_MAX_LENGTH, `reason must be at most ${REASON_MAX_LENGTH} characters`)
  .refine((reason) => reason === '' || !INVISIBLE.test(reason), 'reason must contain visible characters: say why')
  // The refinement, for a client generated from the contract: one character that shows.
  .meta({ override: { pattern: '[^\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Z}\\u115f\\u1160\\u2800\\u3164\\uffa0]' } });

/** The same rule inside the domain, for commands that do not come through HTTP. */
export function assertReason(reason: string): void {
  if (!reasonSchema.safeParse(reason).success) {
    throw new DomainError('invalid_reason', `a reason of 1 to ${REASON_MAX_LENGTH} characters is required`);
  }
}
