import { chmodSync, copyFileSync, constants, existsSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigurationError, Settings } from '../../config';
import { EventStore } from '../../stores/ports';
import { checkpointPayload, CHECKPOINT_STREAM, CHECKPOINT_TYPE, LegacyCheckpoint } from './checkpoint';
import { openNote, parseNote } from './note';
import { holdsSignature, loadSigningKey, SigningKey, writeNewKey } from './signing-key';

/**
 * The signing key and the keys it replaced. A rotation keeps the replaced key beside the key file
 * as `<file>.previous-<key hash>`: the checkpoint after a rotation is signed by both, which links
 * the new key to the old for an auditor, and a process can still tell the old checkpoints its own.
 */
export interface KeyFiles {
  file: string;
  /** The log's origin, which names its note keys. */
  origin: string;
  /** Whether a process may create the key when there is none and the log has no checkpoint yet. */
  create: boolean;
}

export interface KeyRing {
  current: SigningKey;
  previous: SigningKey[];
}

const PREVIOUS = '.previous-';

export const previousKeyFile = (file: string, key: SigningKey): string => `${file}${PREVIOUS}${key.noteKey.hash}`;

/** The key file and the replaced keys beside it, as they are now; creates nothing. */
export function readKeyRing({ file, origin }: KeyFiles): KeyRing {
  const current = loadSigningKey(file, { create: false, origin });
  const prefix = `${basename(file)}${PREVIOUS}`;
  const previous = readdirSync(dirname(file))
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => loadSigningKey(join(dirname(file), name), { create: false, origin }));
  return { current, previous };
}

/**
 * The keys a process signs with, after checking that they are the log's: a process whose key did
 * not sign the latest checkpoint would sign checkpoints no auditor can link to the earlier ones,
 * so it refuses to start; and it creates a key only for a log that has no checkpoint yet.
 */
export async function openKeyRing(files: KeyFiles, events: EventStore): Promise<KeyRing> {
  const [latest] = await events.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
  if (latest && !existsSync(files.file)) {
    throw new ConfigurationError(
      `AUDIT_SIGNING_KEY_FILE ${files.file}: no such file, and the audit log holds checkpoints signed by ${signersOf(latest)}. ` +
        'Restore the key file from your backup (with any .previous-<hash> file beside it); no new key is made while the log has checkpoints, ' +
        'as auditors could not link it to the earlier ones. To change keys, restore the old one, then run `platform audit key --rotate` (docs/production.md)',
    );
  }
  if (!latest) loadSigningKey(files.file, { create: files.create, origin: files.origin });
  const ring = readKeyRing(files);
  if (latest && !signedByOneOf(latest, [ring.current, ...ring.previous])) {
    throw new ConfigurationError(
      `AUDIT_SIGNING_KEY_FILE ${files.file} holds the key ${ring.current.noteKey.hash}, and the audit log's latest checkpoint is signed by ${signersOf(latest)}: ` +
        'restore the key file that signed it from your backup; after `platform audit key --rotate`, keep the .previous-<hash> file it left beside the key file (docs/production.md)',
    );
  }
  return ring;
}

/**
 * Replaces the key file with a new key, keeping the old one beside it; `record` appends the
 * rotation to the log before anything changes on disk, so a failed append leaves the old key in
 * place, and a key in place was always announced in the log first.
 */
export async function rotateKeyFile(
  files: KeyFiles,
  record: (previous: SigningKey, next: SigningKey) => Promise<void>,
): Promise<{ previous: SigningKey; next: SigningKey }> {
  const previous = loadSigningKey(files.file, { create: false, origin: files.origin });
  const { temporary } = writeNewKey(files.file);
  try {
    const next = loadSigningKey(temporary, { create: false, origin: files.origin });
    await record(previous, next);
    copyFileSync(files.file, previousKeyFile(files.file, previous), constants.COPYFILE_EXCL);
    chmodSync(previousKeyFile(files.file, previous), 0o600);
    renameSync(temporary, files.file);
    return { previous, next };
  } finally {
    if (existsSync(temporary)) unlinkSync(temporary);
  }
}

type Stored = { type: string; data: Record<string, unknown> };

function signersOf(checkpoint: Stored): string {
  if (checkpoint.type !== CHECKPOINT_TYPE) return 'a key of the legacy format (no key hash)';
  try {
    return parseNote(String(checkpoint.data.note))
      .signatures.map((s) => `${s.name}+${s.hash}`)
      .join(' and ');
  } catch {
    return 'an unreadable note';
  }
}

function signedByOneOf(checkpoint: Stored, keys: SigningKey[]): boolean {
  if (checkpoint.type !== CHECKPOINT_TYPE) {
    const legacy = checkpoint.data as LegacyCheckpoint;
    return keys.some((k) => holdsSignature(k.publicKeyPem, checkpointPayload(legacy), legacy.signature));
  }
  try {
    openNote(
      String(checkpoint.data.note),
      keys.map((k) => k.noteKey),
    );
    return true;
  } catch {
    return false;
  }
}

export const keyFilesOf = (
  settings: Pick<Settings, 'AUDIT_SIGNING_KEY_FILE' | 'createAuditSigningKey' | 'AUDIT_LOG_ORIGIN'>,
): KeyFiles => ({
  file: settings.AUDIT_SIGNING_KEY_FILE,
  origin: settings.AUDIT_LOG_ORIGIN,
  create: settings.createAuditSigningKey,
});
