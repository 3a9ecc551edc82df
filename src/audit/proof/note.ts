import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519: a text ending in a newline, a blank line,
 * then one line per signature, `— <key name> <base64(key hash ‖ signature)>`. The key hash is the
 * first four bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ the 32-byte public key); 0x01 names Ed25519.
 * The Go checksum database's `sumdb/note` package reads and writes the same bytes.
 */

const ED25519 = 0x01;
const LONE_SURROGATE = /\p{Cs}/u;
const SIGNATURE_PREFIX = '\u2014 ';
/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the raw key follows it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A key name: no white space, no '+', not empty (c2sp.org/signed-note, "Signatures"). */
export const isKeyName = (name: string): boolean => name !== '' && !/[\s+]/u.test(name) && !LONE_SURROGATE.test(name);

export interface NoteKey {
  name: string;
  /** The four-byte key hash, as 8 lowercase hex digits. */
  hash: string;
  publicKey: KeyObject;
  /** `<name>+<hash>+<base64(0x01 ‖ public key)>`, the note verifier key. */
  verifierKey: string;
}

export function rawPublicKey(publicKey: KeyObject): Buffer {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  if (publicKey.asymmetricKeyType !== 'ed25519' || !der.subarray(0, SPKI_PREFIX.length).equals(SPKI_PREFIX))
    throw new Error('not an Ed25519 public key');
  return der.subarray(SPKI_PREFIX.length);
}

export function noteKeyOf(name: string, publicKey: KeyObject): NoteKey {
  if (!isKeyName(name))
    throw new Error(`"${name}" cannot name a note key: it must be non-empty, without white space or '+'`);
  const raw = Buffer.concat([Buffer.from([ED25519]), rawPublicKey(publicKey)]);
  const hash = createHash('sha256').update(`${name}\n`).update(raw).digest().subarray(0, 4).toString('hex');
  return { name, hash, publicKey, verifierKey: `${name}+${hash}+${raw.toString('base64')}` };
}

/** Reads a verifier key; throws saying what is wrong with it. */
export function parseVerifierKey(text: string): NoteKey {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  if (!match) throw new Error('a verifier key reads <name>+<8 hex digits>+<base64 key>');
  const raw = Buffer.from(match[3]!, 'base64');
  if (raw.length !== 33 || raw[0] !== ED25519)
    throw new Error('the verifier key is not an Ed25519 key (0x01 and 32 bytes)');
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, raw.subarray(1)]),
    format: 'der',
    type: 'spki',
  });
  const key = noteKeyOf(match[1]!, publicKey);
  if (key.hash !== match[2])
    throw new Error(`the verifier key's hash ${match[2]} is not the hash of its name and key (${key.hash})`);
  return key;
}

export interface NoteSignature {
  name: string;
  hash: string;
  signature: Buffer;
}

/** A note with its signature lines appended; `sign` returns the 64-byte Ed25519 signature over the text. */
export function signedNote(text: string, signers: readonly { key: NoteKey; sign: (text: Buffer) => Buffer }[]): string {
  if (!text.endsWith('\n') || !isNoteText(text))
    throw new Error('a note text ends in a newline and holds no other control character');
  const bytes = Buffer.from(text, 'utf8');
  const lines = signers.map(
    ({ key, sign }) =>
      `${SIGNATURE_PREFIX}${key.name} ${Buffer.concat([Buffer.from(key.hash, 'hex'), sign(bytes)]).toString('base64')}\n`,
  );
  return `${text}\n${lines.join('')}`;
}

// sumdb/note refuses every ASCII control character but the newline: the note's lines are its structure.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f]/u;
const isNoteText = (text: string): boolean => !LONE_SURROGATE.test(text) && !CONTROL_BUT_NEWLINE.test(text);

export class MalformedNote extends Error {}

/** Splits a signed note into its text and signatures, as sumdb/note's Open reads it; verifies none. */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } {
  if (!isNoteText(note))
    throw new MalformedNote('the note holds a control character other than a newline, or is not UTF-8');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new MalformedNote('the note has no blank line before its signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '' || !block.endsWith('\n'))
    throw new MalformedNote('the note has no signature line, or its last line does not end in a newline');
  const signatures = block
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/u.exec(line);
      const bytes = match ? Buffer.from(match[2]!, 'base64') : Buffer.alloc(0);
      if (!match || !isKeyName(match[1]!) || bytes.length < 5)
        throw new MalformedNote(`"${line}" is not a signature line (— <name> <base64>)`);
      return { name: match[1]!, hash: bytes.subarray(0, 4).toString('hex'), signature: bytes.subarray(4) };
    });
  return { text, signatures };
}

/**
 * The note's text and the keys among `known` that signed it. A signature by a key not known is
 * passed over, as sumdb/note does; one by a known key that does not verify, or none by any known
 * key, is refused.
 */
export function openNote(note: string, known: readonly NoteKey[]): { text: string; signedBy: NoteKey[] } {
  const { text, signatures } = parseNote(note);
  const signedBy: NoteKey[] = [];
  for (const s of signatures) {
    const key = known.find((k) => k.name === s.name && k.hash === s.hash);
    if (!key) continue;
    if (!verify(null, Buffer.from(text, 'utf8'), key.publicKey, s.signature))
      throw new MalformedNote(`the signature of ${s.name}+${s.hash} does not verify: the note was changed`);
    if (!signedBy.includes(key)) signedBy.push(key);
  }
  if (signedBy.length === 0) {
    const named = signatures.map((s) => `${s.name}+${s.hash}`).join(', ');
    throw new MalformedNote(`no signature by a key given: the note is signed by ${named}`);
  }
  return { text, signedBy };
}
