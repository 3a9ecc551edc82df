import { createHash, randomBytes } from 'node:crypto';

/** How many recovery codes an enrolment gives: each signs in once when the authenticator is lost. */
export const RECOVERY_CODES = 10;

// Letters and digits that cannot be misread for one another (no 0/O, 1/I/L).
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One code: 12 characters of a 31-letter alphabet (about 59 bits), grouped as xxxx-xxxx-xxxx. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(12)].map((byte) => ALPHABET[byte % ALPHABET.length]!);
  return [0, 4, 8].map((at) => chars.slice(at, at + 4).join('')).join('-');
}

/** Fresh codes, shown once: only their digests are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
}

/**
 * What is kept of a code: its SHA-256. The codes are random (not chosen by people), so a fast
 * digest cannot be reversed by guessing; typed codes are compared without case, spaces or dashes.
 */
export function recoveryCodeDigest(code: string): string {
  const folded = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(folded).digest('base64url');
}
