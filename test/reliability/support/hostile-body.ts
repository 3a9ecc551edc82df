import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { hostileText } from './hostile';

/**
 * Hostile request bodies (issue 7, reliability: fuzz): the endpoint's own fields with plausible or
 * hostile values, any JSON, malformed JSON, deep nesting, huge text, bytes that are not UTF-8, gzip.
 */

/** Values of the right type for fields of these names, so that some requests pass validation and write. */
const PLAUSIBLE_FIELDS: Record<string, unknown[]> = {
  username: ['fuzzer01', 'Fuzz.User-2', 'admin'],
  password: ['secret1', 'admin-secret'],
  email: ['dev@example.com'],
  mobile: ['+8613800138000'],
  nickname: ['Fuzzy', ''],
  reason: ['policy', 'integration'],
  scopes: [['addons.read'], ['addons.read', 'member-groups.read']],
  grace_seconds: [0, 60, 86_400],
  page_roles: [{ home: [1], settings: [] }, {}],
};

const PLAUSIBLE: unknown[] = [...Object.values(PLAUSIBLE_FIELDS).flat(), 86_401, [], {}];

// Object.hasOwn: the keys tried include `constructor` and `__proto__`.
const plausibleFor = (field: string) =>
  fc
    .constantFrom(...(Object.hasOwn(PLAUSIBLE_FIELDS, field) ? PLAUSIBLE_FIELDS[field]! : PLAUSIBLE))
    .map((v) => JSON.stringify(v));

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'];

/** A string of an eighth of `limitBytes` up to a quarter over it, in characters of 1 to 6 JSON bytes. */
function hugeText(limitBytes: number) {
  return fc
    .tuple(
      fc.constantFrom('a', 'é', '😀', '\u0000', '\uD800', '"'),
      fc.integer({ min: limitBytes / 8, max: limitBytes * 1.25 }),
    )
    .map(([char, bytes]) => char.repeat(Math.ceil(bytes / Buffer.byteLength(JSON.stringify(char).slice(1, -1)))));
}

/** JSON text, built by hand so that keys such as __proto__ and duplicated keys reach the wire as written. */
function jsonText(keys: fc.Arbitrary<string>, strings: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const scalar = fc.oneof(
    fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-0',
      '1e308',
      '-1e-308',
      '9007199254740993',
      '123456789012345678901234567890',
      '1.5',
    ),
    fc.double().map((n) => JSON.stringify(n)),
    fc.integer().map(String),
    strings.map((s) => JSON.stringify(s)),
    fc.constantFrom(...PLAUSIBLE).map((v) => JSON.stringify(v)),
  );
  const { value } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    object: fc.array(fc.tuple(keys, tie('value')), { maxLength: 5 }).map((entries) => objectText(entries)),
  }));
  return value;
}

function objectText(entries: [string, string][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

/** An object of the endpoint's own fields (plausible or hostile values), now and then a stranger or a polluting key. */
function fieldsObject(fields: string[], limitBytes: number): fc.Arbitrary<string> {
  const key =
    fields.length > 0
      ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...fields) }, fc.constantFrom(...POLLUTION_KEYS), hostileText)
      : fc.oneof(fc.constantFrom(...POLLUTION_KEYS), hostileText);
  const entry = key.chain((k) =>
    fc.tuple(
      fc.constant(k),
      fc.oneof(
        { weight: 4, arbitrary: plausibleFor(k) },
        { weight: 3, arbitrary: jsonText(key, hostileText) },
        { weight: 1, arbitrary: hugeText(limitBytes).map((t) => JSON.stringify(t)) },
      ),
    ),
  );
  return fc.array(entry, { maxLength: fields.length + 2 }).map(objectText);
}

/** Every field of the endpoint with a plausible value: the requests that pass and write, between the hostile ones. */
function plausibleObject(fields: string[]): fc.Arbitrary<string> {
  return fc.tuple(...fields.map((f) => plausibleFor(f).map((v): [string, string] => [f, v]))).map(objectText);
}

const MALFORMED = [
  '{',
  '}',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '[1,2',
  '{"a":1}}',
  '{"a":1} trailing',
  'undefined',
  'NaN',
  '"just a string"',
  '42',
  'null',
  '\uFEFF{}',
  '{"a":"\\x"}',
  '{"a":01}',
  '{"a":0x10}',
  '{"a":"\u0000"}',
  '{"a" "b"}',
  ' ',
  '\n\n',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":{"b":{"__proto__":{"polluted":"yes"}}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
  '{"__proto__":[]}',
];

/** Ten megabytes of spaces in a few kilobytes of gzip: the limit must hold after inflating. */
const GZIP_BOMB = gzipSync(Buffer.alloc(10 * 1024 * 1024, ' '));

export type Body =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'gzip'; bytes: Buffer };

/** Request bodies: none, empty, the endpoint's fields, any JSON, malformed, deeply nested, huge, binary, gzip. */
export function hostileBody(fields: string[], limitBytes: number): fc.Arbitrary<Body> {
  const text = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((t): Body => ({ kind: 'text', text: t }));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'text', text: '' }) },
    { weight: 8, arbitrary: text(fieldsObject(fields, limitBytes)) },
    { weight: 3, arbitrary: text(plausibleObject(fields)) },
    {
      weight: 2,
      arbitrary: text(jsonText(fc.oneof(fc.constantFrom(...fields, ...POLLUTION_KEYS), hostileText), hostileText)),
    },
    { weight: 2, arbitrary: text(fc.constantFrom(...MALFORMED)) },
    {
      weight: 1,
      arbitrary: text(
        fc.tuple(fieldsObject(fields, 64), fc.nat()).map(([t, n]) => t.slice(0, n % Math.max(t.length, 1))),
      ),
    },
    {
      weight: 1,
      arbitrary: text(
        fc.tuple(fc.integer({ min: 100, max: 10_000 }), fc.boolean()).map(([depth, arrays]) => nested(depth, arrays)),
      ),
    },
    {
      weight: 1,
      arbitrary: text(
        fc
          .tuple(fc.constantFrom(...fields, 'a'), fc.integer({ min: 100, max: 10_000 }), fc.boolean())
          .map(([field, depth, arrays]) => `{${JSON.stringify(field)}:${nested(depth, arrays)}}`),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 512 }).map((b): Body => ({ kind: 'bytes', bytes: Buffer.from(b) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...fields, 'a'),
          fc.constantFrom([0xff, 0xfe], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]),
        )
        .map(([field, bytes]): Body => ({
          kind: 'bytes',
          bytes: Buffer.concat([Buffer.from(`{${JSON.stringify(field)}:"`), Buffer.from(bytes), Buffer.from('"}')]),
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Body>({ kind: 'gzip', bytes: GZIP_BOMB }, { kind: 'gzip', bytes: gzipSync('{}') }),
    },
  );
}

/** `depth` levels of nesting as raw text: JSON.parse copes, a recursive walk of the result may not. */
function nested(depth: number, arrays: boolean): string {
  return arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
