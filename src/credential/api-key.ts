import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Credential formats (docs/credentials.md). The API id is `ak_` and 20 lowercase base32 characters; the
 * API key is `sk_`, 32 random bytes in base64url, `_` and a 6-character checksum of the rest, so
 * that secret scanners can tell a real key from noise without asking us. The service keeps only
 * the SHA-256 digest of the key. Randomness is passed in: these functions are pure.
 */
export const API_ID_RANDOM_BYTES = 13;
export const API_KEY_RANDOM_BYTES = 32;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const API_KEY_PATTERN = /^(sk_[A-Za-z0-9_-]{43})_([0-9A-Za-z]{6})$/;

function base32(bytes: Buffer, length: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (out.length < length) throw new Error(`need more random bytes for ${length} base32 characters`);
  return out;
}

/** CRC-32 in six base-62 digits: 62^6 exceeds 2^32, so every checksum fits. */
function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function formatApiId(random: Buffer): string {
  return `ak_${base32(random, 20)}`;
}

export function formatApiKey(random: Buffer): string {
  if (random.length !== API_KEY_RANDOM_BYTES) throw new Error(`an API key takes ${API_KEY_RANDOM_BYTES} random bytes`);
  const body = `sk_${random.toString('base64url')}`;
  return `${body}_${checksum(body)}`;
}

/** Shape and checksum only: a key that fails this was mistyped or made up, and needs no lookup. */
export function isWellFormedApiKey(key: string): boolean {
  const match = API_KEY_PATTERN.exec(key);
  return match !== null && checksum(match[1]!) === match[2];
}

/** What the service keeps of a key: SHA-256 of the whole string, in hex. */
export function apiKeyDigest(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * The same digest as bytes, as the partner guard compares it on every partner call. Asked for as a
 * string of one character a byte ('binary', that is latin1) and copied into Buffer's shared pool:
 * a digest as its own Buffer costs a fresh ArrayBuffer per call, about a microsecond more on this
 * path (docs/performance.md).
 */
export function apiKeyDigestBytes(key: string): Buffer {
  return Buffer.from(hash('sha256', key, 'binary'), 'binary');
}

/**
 * A key's label where the member tells the current key from the one a rotation left in grace: the
 * start of its digest. Eight hex digits of a SHA-256 say nothing of the key itself.
 */
export const keyFingerprint = (digest: string): string => digest.slice(0, 8);
