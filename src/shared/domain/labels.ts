import { rectifyConfusion } from 'unicode-confusables';

/**
 * C0 and C1 controls and DEL (newlines, ESC starting ANSI and OSC sequences), the Unicode line and
 * paragraph separators, and the bidirectional overrides that reorder what is shown after them.
 */
export const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

/**
 * Controls, separators of lines and paragraphs, and every format character (Cf): the zero-width
 * ones (U+200B to U+200D, U+2060, U+FEFF) that make two names that read alike differ, and the
 * bidirectional controls.
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * isLabel's rule as a JSON Schema pattern (ECMA-262 with the u flag), for the contract: one
 * character that is no white space, and none unseen. The length is the caller's maxLength; both
 * are judged before NFKC, which seldom changes either.
 */
export const LABEL_PATTERN = '^(?=[\\s\\S]*\\S)[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]+$';

/** A name as it is kept and compared: NFKC, so that a fullwidth or ligature spelling is the plain one. */
export const normaliseLabel = (name: string): string => name.normalize('NFKC');

/**
 * A name others read in lists, tables and the open API (a group's), once normalised: 1 to `max`
 * characters, not only spaces, and none that breaks a line, reorders what is shown, or is unseen.
 */
export function isLabel(name: string, max: number): boolean {
  return name.trim() !== '' && name.length <= max && !UNSEEN.test(name);
}

/** The UTS #39 skeleton: NFD around the mapping of confusables.txt (through unicode-confusables), as the standard computes it. */
const skeleton = (name: string): string => rectifyConfusion(name.normalize('NFD')).normalize('NFD');

/**
 * What a name reads as, case aside: the keys under which it is unique (UTS #39 skeletons). Case is
 * folded before the mapping and again after it, since the mapping itself knows case ("0" reads as
 * "O", capital "I" as "l"): so "Аuditors" with a Cyrillic А and "Auditors", "adrnin" and "admin",
 * "g00gle" and "Google", "paypaI" and "paypal" share a key. Two names read alike when they share one.
 */
export function lookAlikeKeys(name: string): string[] {
  const normal = normaliseLabel(name);
  const folded = skeleton(skeleton(normal.toLowerCase()).toLowerCase());
  const mappedFirst = skeleton(skeleton(normal).toLowerCase());
  // Sorted: claimed in one order by everyone, so of two names sharing keys the first shared one decides.
  return folded === mappedFirst ? [folded] : [folded, mappedFirst].sort();
}

/** Whether two names read alike (lookAlikeKeys). */
export function readAlike(name: string, other: string): boolean {
  const keys = lookAlikeKeys(name);
  return lookAlikeKeys(other).some((key) => keys.includes(key));
}
