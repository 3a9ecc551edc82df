import { z } from 'zod';

/**
 * A number written in decimal digits, within bounds: `0x50`, `1e3` or ` 8 ` are refused rather than
 * read as some other number. `fractions` lets `0.5` through.
 */
export const number = (min: number, max: number, fractions = false) =>
  z
    .string()
    .regex(fractions ? /^\d+(\.\d+)?$/ : /^\d+$/, {
      error: fractions ? 'must be a number in digits, such as 30 or 0.5' : 'must be a whole number, in digits',
    })
    .transform(Number)
    .pipe(z.number().min(min).max(max));
