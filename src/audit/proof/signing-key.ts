import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigurationError } from '../../config';
import { canonicalJson } from '../../shared/domain/chain';
import { NoteKey, noteKeyOf, signedNote } from './note';

/**
 * The Ed25519 key that signs checkpoints and export heads. It lives outside the event store, so
 * that whoever can write the log cannot sign for it: in AUDIT_SIGNING_KEY_FILE, created 0600 on
 * the first start (docs/audit.md).
 */
export interface SigningKey {
  /** The public key, PEM (SPKI): what an auditor verifies with. */
  publicKeyPem: string;
  /** A base64 Ed25519 signature over the canonical JSON of `payload`. */
  sign(payload: Record<string, unknown>): string;
  /** The key as a C2SP note key, named by the log's origin. */
  noteKey: NoteKey;
  /** Signs a note's text with this key: what signedNote takes, one per key, to sign with several. */
  noteSigner: NoteSigner;
  /** The text as a C2SP signed note, signed by this key. */
  signNote(text: string): string;
}

export type NoteSigner = Parameters<typeof signedNote>[1][number];

/**
 * Reads the key file; when there is none yet, creates it (0600, in a 0700 directory) if `create`,
 * else refuses: with the production stores every process must read the one key the deployment gives.
 */
export function loadSigningKey(file: string, { create, origin }: { create: boolean; origin: string }): SigningKey {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (!create) {
      throw new ConfigurationError(
        `AUDIT_SIGNING_KEY_FILE ${file}: no such file. Every process must sign with the one key: create it once ` +
          '(`platform audit key --create`, or `openssl genpkey -algorithm ed25519 -out <file>`) where every API instance and the projector read it (docs/production.md)',
      );
    }
    pem = createKeyFile(file);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(
      `AUDIT_SIGNING_KEY_FILE ${file} holds no private key in PEM: give an Ed25519 key (openssl genpkey -algorithm ed25519), or remove the file to have one created`,
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`AUDIT_SIGNING_KEY_FILE ${file} holds a ${privateKey.asymmetricKeyType} key: give an Ed25519 key`);
  const publicKey = createPublicKey(privateKey);
  const noteKey = noteKeyOf(origin, publicKey);
  const noteSigner: NoteSigner = { key: noteKey, sign: (bytes) => sign(null, bytes, privateKey) };
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sign: (payload) => sign(null, Buffer.from(canonicalJson(payload)), privateKey).toString('base64'),
    noteKey,
    noteSigner,
    signNote: (text) => signedNote(text, [noteSigner]),
  };
}

/**
 * Writes a new key where there is none, atomically: the whole key goes to a temporary file in the
 * same directory, then is linked into place, so no process ever reads a half-written key. Two
 * processes starting at once on one directory keep the key linked first.
 */
function createKeyFile(file: string): string {
  const { pem, temporary } = writeNewKey(file);
  try {
    linkSync(temporary, file);
    return pem;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8');
  } finally {
    unlinkSync(temporary);
  }
}

/** A new key in a temporary file (0600) beside `file`, for the caller to link or rename into place. */
export function writeNewKey(file: string): { pem: string; temporary: string } {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const temporary = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(temporary, pem, { mode: 0o600, flag: 'wx' });
  return { pem, temporary };
}

/** Whether `signature` (base64) is the key's signature over the canonical JSON of `payload`. */
export function holdsSignature(publicKeyPem: string, payload: Record<string, unknown>, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  try {
    return verify(
      null,
      Buffer.from(canonicalJson(payload)),
      createPublicKey(publicKeyPem),
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}
