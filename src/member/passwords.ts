import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/**
 * Argon2id at the OWASP minimum (19 MiB, 2 passes, 1 lane). The hash is a PHC string that names
 * its own parameters, so raising them later leaves existing hashes verifiable.
 */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of a real verification, so that an unknown username is not told apart by timing. */
  verifyNothing(password: string): Promise<false>;
}

export function argon2Hasher(): PasswordHasher {
  let decoy: Promise<string> | undefined;
  return {
    hash: (password) => argon2.hash(password, ARGON2_OPTIONS),
    verify: (hash, password) => argon2.verify(hash, password),
    async verifyNothing(password) {
      decoy ??= argon2.hash('a decoy that no password matches', ARGON2_OPTIONS);
      await argon2.verify(await decoy, password);
      return false;
    },
  };
}

/** A password handed over once (an administrator's creation or reset, a member's reset by one): 24 characters from 18 random bytes. */
export const oneTimePassword = (): string => randomBytes(18).toString('base64url');
