import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { dirname } from 'node:path';

/** What SQLite keeps beside a database file; it creates them with the database file's own mode. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

function chmodIfPresent(file: string, mode: number): void {
  try {
    chmodSync(file, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Makes a database file readable by this user only, whatever the umask: the data directory 0700
 * and the file and its companions 0600, also when they existed before (a directory made 0755 by
 * hand, files left by an older version). The file holds sessions, password hashes and the log.
 */
export function preparePrivateFile(file: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  // Created 0600 before SQLite opens it, so it is never readable by others, not even for a moment.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  for (const suffix of COMPANIONS) chmodIfPresent(`${file}${suffix}`, 0o600);
}

const KEY_BYTES = 32;

/**
 * A random 32-byte key in a file of its own, 0600 in a 0700 directory, made on first use. Written
 * aside and linked into place, so that two processes starting together read one whole key.
 */
export function privateKey(file: string): Buffer {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    writeFileSync(aside, randomBytes(KEY_BYTES), { mode: 0o600 });
    try {
      linkSync(aside, file);
    } finally {
      unlinkSync(aside);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  const key = readFileSync(file);
  if (key.length !== KEY_BYTES)
    throw new Error(`${file} must hold ${KEY_BYTES} bytes (a key this service made): it holds ${key.length}`);
  return key;
}

/**
 * Makes the data directory 0700 and every file in it 0600, as it is found: a process that opens
 * only some of them (the CLI leaves rate-limits.db alone) still leaves none readable by others,
 * whatever an older version or a copy by hand left behind.
 */
export function tightenDataDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile()) chmodIfPresent(join(dir, entry.name), 0o600);
}
