import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { CHECKPOINT_STREAM, KEY_ROTATED_TYPE, KEY_STREAM } from '../../../src/audit/proof/checkpoint';
import { AuditCheckpointer } from '../../../src/audit/proof/checkpointer';
import { KeyFiles, previousKeyFile, readKeyRing, rotateKeyFile } from '../../../src/audit/proof/key-ring';
import { loadSigningKey } from '../../../src/audit/proof/signing-key';
import { ConfigurationError } from '../../../src/config';
import { Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { eventually } from '../../support/eventually';
import { startPlatform } from '../../support/platform';
import { appendTo, signersOf } from '../support/checkpoints';

const ORIGIN = 'test.example/audit';
const fresh = () => mkdtempSync(join(tmpdir(), 'audit-key-ring-'));

describe('a process whose key did not sign the log', () => {
  it('refuses to start when the key file is gone and the log has checkpoints, and makes no new key', async () => {
    const dir = fresh();
    const file = join(dir, 'audit-signing-key.pem');
    const first = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
    await eventually(async () => (await first.platform.stores.events.readStream(CHECKPOINT_STREAM)).length > 0, {
      within: 10_000,
    });
    await first.close();
    const original = readFileSync(file, 'utf8');

    rmSync(file);
    const gone = startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
    await expect(gone).rejects.toBeInstanceOf(ConfigurationError);
    await expect(gone).rejects.toThrow(
      new RegExp(
        `^AUDIT_SIGNING_KEY_FILE ${file}: no such file, and the audit log holds checkpoints signed by \\S+\\+[0-9a-f]{8}\\. Restore the key file from your backup`,
      ),
    );
    expect(existsSync(file)).toBe(false);

    loadSigningKey(file, { create: true, origin: ORIGIN });
    await expect(startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir)).rejects.toThrow(
      /holds the key [0-9a-f]{8}, and the audit log's latest checkpoint is signed by .*: restore the key file that signed it/,
    );

    writeFileSync(file, original);
    const restored = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
    await restored.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('a rotation of the signing key', () => {
  it('records the rotation first, then keeps the old key beside the new one (0600)', async () => {
    const keys: KeyFiles = { file: join(fresh(), 'key.pem'), origin: ORIGIN, create: true };
    const old = loadSigningKey(keys.file, { create: true, origin: ORIGIN });
    const recorded: string[] = [];
    const { previous, next } = await rotateKeyFile(keys, async (p, n) => {
      // Nothing has changed on disk yet when the log hears of it.
      expect(loadSigningKey(keys.file, { create: false, origin: ORIGIN }).noteKey).toEqual(p.noteKey);
      recorded.push(p.noteKey.verifierKey, n.noteKey.verifierKey);
    });
    expect(previous.noteKey.verifierKey).toBe(old.noteKey.verifierKey);
    expect(recorded).toEqual([old.noteKey.verifierKey, next.noteKey.verifierKey]);
    const ring = readKeyRing(keys);
    expect(ring.current.noteKey.verifierKey).toBe(next.noteKey.verifierKey);
    expect(ring.previous.map((k) => k.noteKey.verifierKey)).toEqual([old.noteKey.verifierKey]);
    expect(statSync(previousKeyFile(keys.file, old)).mode & 0o777).toBe(0o600);
  });

  it('changes nothing on disk when the log cannot record it', async () => {
    const keys: KeyFiles = { file: join(fresh(), 'key.pem'), origin: ORIGIN, create: true };
    const old = loadSigningKey(keys.file, { create: true, origin: ORIGIN });
    await expect(rotateKeyFile(keys, () => Promise.reject(new Error('the store is down')))).rejects.toThrow(
      'the store is down',
    );
    expect(readKeyRing(keys)).toMatchObject({ current: { publicKeyPem: old.publicKeyPem }, previous: [] });
    expect(existsSync(previousKeyFile(keys.file, old))).toBe(false);
  });

  it('has the next checkpoint signed by both keys, and the ones after by the new key alone', async () => {
    const dir = fresh();
    const stores: Stores = openSqliteStores(dir);
    const keys: KeyFiles = { file: join(dir, 'key.pem'), origin: ORIGIN, create: true };
    const checkpointer = new AuditCheckpointer(stores.events, stores.documents, keys, 50, pino({ level: 'silent' }));
    await checkpointer.start();
    await appendTo(stores.events, 'a-1');
    await eventually(async () => (await signersOf(stores.events)).length === 1, { within: 10_000 });
    const { previous, next } = await rotateKeyFile(keys, (p, n) =>
      appendTo(stores.events, KEY_STREAM, 1, KEY_ROTATED_TYPE, {
        previous: p.noteKey.verifierKey,
        next: n.noteKey.verifierKey,
      }),
    );
    await eventually(async () => (await signersOf(stores.events)).length === 2, { within: 10_000 });
    await appendTo(stores.events, 'a-1');
    await eventually(async () => (await signersOf(stores.events)).length === 3, { within: 10_000 });
    await checkpointer.stop();
    expect(await signersOf(stores.events)).toEqual([
      [previous.noteKey.hash],
      [previous.noteKey.hash, next.noteKey.hash],
      [next.noteKey.hash],
    ]);
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
