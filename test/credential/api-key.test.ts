import { createHash, randomBytes } from 'node:crypto';
import {
  API_ID_RANDOM_BYTES,
  API_KEY_RANDOM_BYTES,
  apiKeyDigest,
  formatApiId,
  formatApiKey,
  isWellFormedApiKey,
} from '../../src/credential/api-key';
import { withoutApiKeys } from '../../src/shared/redact';

// Written out rather than imported, so a change to the format in src cannot pass unnoticed.
const API_ID_SHAPE = /^ak_[a-z2-7]{20}$/;
const API_KEY_SHAPE = /^sk_[A-Za-z0-9_-]{43}_[0-9A-Za-z]{6}$/;
const BODY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const CHECKSUM_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const sequence = (length: number) => Buffer.from(Array.from({ length }, (_, i) => i));

describe('API id', () => {
  it('is ak_ and 20 lowercase base32 characters of the random bytes (RFC 4648 alphabet)', () => {
    // Reference values from Python's base64.b32encode, lower-cased and cut to 20 characters.
    expect(formatApiId(Buffer.from('foobarfoobarf'))).toBe('ak_mzxw6ytbojtg633cmfzg');
    expect(formatApiId(sequence(13))).toBe('ak_aaaqeayeaudaocajbifq');
  });

  it('has the documented shape for any random bytes', () => {
    for (let i = 0; i < 1000; i++) expect(formatApiId(randomBytes(API_ID_RANDOM_BYTES))).toMatch(API_ID_SHAPE);
  });

  it('is the same for the same random bytes and differs for others', () => {
    const random = randomBytes(API_ID_RANDOM_BYTES);
    expect(formatApiId(Buffer.from(random))).toBe(formatApiId(random));
    const other = Buffer.from(random);
    other[0] = other[0]! ^ 0x80;
    expect(formatApiId(other)).not.toBe(formatApiId(random));
  });

  it('refuses too few random bytes rather than issuing a short id', () => {
    expect(() => formatApiId(randomBytes(12))).toThrow();
  });
});

describe('API key', () => {
  it('is sk_, the 32 bytes in base64url, _ and a 6-character base-62 checksum', () => {
    // Reference value computed outside Node: Python's urlsafe_b64encode and zlib.crc32 in base 62.
    expect(formatApiKey(sequence(32))).toBe('sk_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8_2FHBmO');
  });

  it('is the same for the same random bytes and differs for others', () => {
    const random = randomBytes(API_KEY_RANDOM_BYTES);
    expect(formatApiKey(Buffer.from(random))).toBe(formatApiKey(random));
    const other = Buffer.from(random);
    other[31] = other[31]! ^ 1;
    expect(formatApiKey(other)).not.toBe(formatApiKey(random));
  });

  it.each([0, 16, 31, 33])('refuses %p random bytes', (length) => {
    expect(() => formatApiKey(randomBytes(length))).toThrow();
  });

  it('generates 1,000 random keys that all have the shape and pass the well-formedness check', () => {
    for (let i = 0; i < 1000; i++) {
      const key = formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
      expect(key).toMatch(API_KEY_SHAPE);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });
});

describe('isWellFormedApiKey', () => {
  /** Every key that differs from `key` in exactly one position, by a character the shape still allows there. */
  function singleCharacterTypos(key: string): string[] {
    const typos: string[] = [];
    for (let i = 3; i < key.length; i++) {
      if (i === 46) continue; // the separator: changing it breaks the shape, tested on its own below
      const alphabet = i < 46 ? BODY_CHARS : CHECKSUM_CHARS;
      for (const c of alphabet) if (c !== key[i]) typos.push(key.slice(0, i) + c + key.slice(i + 1));
    }
    return typos;
  }

  it.each([
    ['a fixed key', formatApiKey(sequence(32))],
    ['a random key', formatApiKey(randomBytes(API_KEY_RANDOM_BYTES))],
    ['another random key', formatApiKey(randomBytes(API_KEY_RANDOM_BYTES))],
  ])('rejects every single-character change of the body or checksum of %s', (_label, key) => {
    const typos = singleCharacterTypos(key);
    expect(typos).toHaveLength(43 * 63 + 6 * 61);
    const accepted = typos.filter(isWellFormedApiKey);
    expect(accepted).toEqual([]);
  });

  it.each([
    ['an empty string', () => ''],
    ['the wrong prefix', (key: string) => `pk_${key.slice(3)}`],
    ['an upper-case prefix', (key: string) => `SK_${key.slice(3)}`],
    ['a changed separator', (key: string) => `${key.slice(0, 46)}-${key.slice(47)}`],
    ['a missing character', (key: string) => key.slice(0, -1)],
    ['an extra character', (key: string) => `${key}a`],
    ['surrounding whitespace', (key: string) => ` ${key} `],
    ['an API id instead of a key', () => formatApiId(randomBytes(API_ID_RANDOM_BYTES))],
  ])('rejects %s', (_label, alter) => {
    const key = formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
    expect(isWellFormedApiKey(alter(key))).toBe(false);
  });
});

describe('apiKeyDigest', () => {
  it('is SHA-256 in lower-case hex', () => {
    // FIPS 180-2 test vector.
    expect(apiKeyDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('covers the whole key string, checksum included', () => {
    const key = formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
    expect(apiKeyDigest(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    expect(apiKeyDigest(key)).not.toBe(apiKeyDigest(key.slice(0, 46)));
    expect(apiKeyDigest(key)).not.toContain(key.slice(3, 46));
  });
});

describe('withoutApiKeys', () => {
  const key = formatApiKey(Buffer.alloc(API_KEY_RANDOM_BYTES, 7));

  it('masks a key, and a mistyped one, wherever it stands in the text', () => {
    expect(withoutApiKeys(`/api/v1/open/addons/${key}`)).toBe('/api/v1/open/addons/sk_[redacted]');
    expect(withoutApiKeys(`${key.slice(0, 30)} and ${key}x`)).toBe('sk_[redacted] and sk_[redacted]');
  });

  it('masks a key written with percent-encoded characters, as the raw path of a request holds it', () => {
    const encoded = (text: string, every: number) =>
      [...text].map((c, i) => (i % every === 0 ? `%${c.charCodeAt(0).toString(16)}` : c)).join('');
    expect(withoutApiKeys(`/api/v1/open/addons/%73k_${key.slice(3)}`)).toBe('/api/v1/open/addons/sk_[redacted]');
    expect(withoutApiKeys(`/api/v1/developer/x/${encoded(key, 3)}`)).toBe('/api/v1/developer/x/sk_[redacted]');
    expect(withoutApiKeys(`/x/sk%5F${key.slice(3)}?a=%20b`)).toBe('/x/sk_[redacted]?a= b');
    expect(withoutApiKeys(`/api/v1/open/addons/%2573k_${key.slice(3)}`)).toBe('/api/v1/open/addons/sk_[redacted]');
    expect(withoutApiKeys(`/a/%252573k_${key.slice(3)}`)).toBe('/a/sk_[redacted]');
  });

  it('leaves an API id, a short sk_ word and other text as they are, percent-encoded ones too', () => {
    for (const text of [
      '/api/v1/open/addons',
      'ak_aaaaaaaaaaaaaaaaaaaa',
      'risk_factor',
      'sk_short',
      '/a%20b/%73k_short',
      '100%',
    ]) {
      expect(withoutApiKeys(text)).toBe(text);
    }
  });
});
