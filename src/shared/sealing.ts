import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM: 32-byte keys, a fresh 12-byte nonce per seal, a 16-byte tag. */
export const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const VERSION = 'v1';

/**
 * Encrypts and authenticates `plain` under `key`, bound to `context` (what it belongs to: a
 * sealed value moved to another webhook does not open). `v1.<nonce>.<tag>.<ciphertext>`, base64url.
 */
export function seal(key: Buffer, plain: Buffer, context: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The plain bytes of a sealed value; throws when the key, the context or the bytes are not the sealer's. */
export function unseal(key: Buffer, sealed: string, context: string): Buffer {
  const [version, nonce, tag, data] = sealed.split('.');
  if (version !== VERSION || nonce === undefined || tag === undefined || data === undefined)
    throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
}
