import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../../../src/config';
import { loadSigningKey, SigningKey } from '../../../src/audit/proof/signing-key';

// writeFileSync as it is, unless a test steps in between the opening of a file and its content.
jest.mock('node:fs', () => {
  const fs = jest.requireActual<typeof import('node:fs')>('node:fs');
  return { ...fs, writeFileSync: jest.fn(fs.writeFileSync) };
});
const actualFs = jest.requireActual<typeof import('node:fs')>('node:fs');

const fresh = () => mkdtempSync(join(tmpdir(), 'audit-key-'));

describe('the audit signing key', () => {
  it('is created on first use where the settings allow it (the embedded stores), and read back after', () => {
    const file = join(fresh(), 'key.pem');
    const created = loadSigningKey(file, { create: true, origin: 'test.example/audit' });
    expect(existsSync(file)).toBe(true);
    expect(loadSigningKey(file, { create: false, origin: 'test.example/audit' }).publicKeyPem).toBe(
      created.publicKeyPem,
    );
  });

  it('is created readable by its owner alone (0600), in a directory of theirs alone (0700) when it makes one', () => {
    const parent = fresh();
    const file = join(parent, 'keys', 'audit', 'key.pem');
    loadSigningKey(file, { create: true, origin: 'test.example/audit' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(parent, 'keys', 'audit')).mode & 0o777).toBe(0o700);
    expect(statSync(join(parent, 'keys')).mode & 0o777).toBe(0o700);
  });

  it('is never created where they do not (the production stores): the process refuses to start, saying what to do', () => {
    const file = join(fresh(), 'key.pem');
    const load = () => loadSigningKey(file, { create: false, origin: 'test.example/audit' });
    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(
      new RegExp(
        `AUDIT_SIGNING_KEY_FILE ${file}: no such file\\. Every process must sign with the one key: create it once \\(\`platform audit key --create\``,
      ),
    );
    expect(existsSync(file)).toBe(false);
  });

  it('is never seen half-written by a process that starts while another creates it: both sign with the key linked first', () => {
    const file = join(fresh(), 'key.pem');
    let other: SigningKey | undefined;
    jest.mocked(writeFileSync).mockImplementationOnce((path, data, options) => {
      // The file is open and still empty when the other process looks for the key.
      actualFs.writeFileSync(path, '', options as Parameters<typeof writeFileSync>[2]);
      other = loadSigningKey(file, { create: true, origin: 'test.example/audit' });
      actualFs.writeFileSync(path, data, { flag: 'w' });
    });
    const first = loadSigningKey(file, { create: true, origin: 'test.example/audit' });
    expect(other?.publicKeyPem).toBe(first.publicKeyPem);
    expect(loadSigningKey(file, { create: false, origin: 'test.example/audit' }).publicKeyPem).toBe(first.publicKeyPem);
    // No temporary file is left beside it.
    expect(readdirSync(dirname(file))).toEqual(['key.pem']);
  });
});
