import { hkdfSync } from 'node:crypto';
import { KEY_BYTES, seal, unseal } from '../../shared/sealing';

/** Seals TOTP seeds at rest, each bound to its account's stream: a sealed seed moved to another account does not open. */
export interface SeedSealer {
  seal(stream: string, secret: string): string;
  open(stream: string, sealed: string): string;
}

/**
 * Seeds sealed with AES-256-GCM as webhook secrets are, under a key of their own derived from the
 * key-encryption key (WEBHOOK_SECRET_KEY or the stores' key file): one key to keep, two uses apart.
 */
export function seedSealer(keyEncryptionKey: Buffer): SeedSealer {
  const key = Buffer.from(hkdfSync('sha256', keyEncryptionKey, Buffer.alloc(0), 'second-factor seeds', KEY_BYTES));
  return {
    seal: (stream, secret) => seal(key, Buffer.from(secret), stream),
    open: (stream, sealed) => unseal(key, sealed, stream).toString(),
  };
}
