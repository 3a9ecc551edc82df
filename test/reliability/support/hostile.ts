import fc from 'fast-check';

/**
 * The pieces hostile requests are made of (issue 7, reliability: fuzz): text, headers, paths and
 * queries here, bodies in ./hostile-body.ts. Each is a plain value or a description resolved when
 * the request is sent, so that a failing case prints readably and replays with its seed.
 */

/** Strings that broke parsers, validators and loggers somewhere before. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'nul\u0000inside',
  '\u202Eevil\u202C',
  'e\u0301\u0302\u0303\u0304',
  '👩‍👩‍👧‍👦',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\uD800',
  'lone\uDC00low',
  '\uFEFFbom',
  'zero\u200Bwidth',
  'עברית مرحبا',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${7*7}',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  'true',
  'null',
  '9'.repeat(400),
  'ADMIN',
  'line\r\nbreak',
  '\t',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Short hostile text: unicode of every kind, lone surrogates, NUL, RTL, combining marks. */
export const hostileText = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 20 }),
  fc
    .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), loneSurrogate, fc.constantFrom(...NASTY)), {
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
);

const CONTENT_TYPES: (string | string[] | undefined)[] = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/problem+json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'text/html',
  'garbage',
  ';;;',
  '',
  ['application/json', 'text/plain'],
  ['text/plain', 'application/json'],
];

export const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | string[] | undefined>('application/json') },
  { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
);

export const contentEncoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>(undefined) },
  fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-bogus', 'gzip, gzip'),
);

/** Path parameters that break their rule: hostile text percent-encoded, and malformed percent-escapes. */
export const hostileSegment = fc.oneof(
  hostileText.map(encodeSegment),
  fc.constantFrom(
    '%',
    '%zz',
    '%ED%A0%80',
    '%C0%AF',
    '%00',
    '..',
    '%2e%2e',
    '%2F..%2F',
    '%FF%FE',
    ';x=1',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x1',
    '9'.repeat(30),
    'a'.repeat(500),
  ),
);

/** Query strings with repeated keys (arrays), bracket keys, polluting keys and hostile values. */
export function hostileQuery(keys: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('status') },
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      '__proto__[polluted]',
      'constructor[prototype][polluted]',
      'a[]',
      'a[b]',
    ),
    hostileText,
  );
  const value = fc.oneof(
    fc.constantFrom('pending', 'active', '1', '100', '10001', '2024-01-01T00:00:00Z', 'yes'),
    hostileText,
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 4 })
    .map((pairs) =>
      pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&')}`,
    );
}

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Percent-encodes UTF-8 like encodeURIComponent, but a lone surrogate goes out as its WTF-8 bytes
 * instead of throwing, so the server meets bytes that are not UTF-8 at all.
 */
export function encodeSegment(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map(hex).join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Text that can go into a header line: UTF-8 bytes read as Latin-1, without the control characters HTTP forbids. */
export function headerSafe(text: string): string {
  return Buffer.from(text, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '')
    .slice(0, 2000);
}
