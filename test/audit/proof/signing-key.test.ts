import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../../../src/config';
import { configuredSigningKey, loadSigningKey } from '../../../src/audit/proof/signing-key';

const fresh = () => mkdtempSync(join(tmpdir(), 'audit-key-'));

describe('the audit signing key', () => {
  it('is created on first use where the settings allow it (the embedded stores), and read back after', () => {
    const file = join(fresh(), 'key.pem');
    const created = configuredSigningKey({ AUDIT_SIGNING_KEY_FILE: file, createAuditSigningKey: true });
    expect(existsSync(file)).toBe(true);
    expect(loadSigningKey(file, { create: false }).publicKeyPem).toBe(created.publicKeyPem);
  });

  it('is never created where they do not (the production stores): the process refuses to start, saying what to do', () => {
    const file = join(fresh(), 'key.pem');
    const load = () => configuredSigningKey({ AUDIT_SIGNING_KEY_FILE: file, createAuditSigningKey: false });
    expect(load).toThrow(ConfigurationError);
    expect(load).toThrow(new RegExp(`AUDIT_SIGNING_KEY_FILE ${file}: no such file\\. Every process must sign with the one key: create it once \\(\`platform audit key --create\``));
    expect(existsSync(file)).toBe(false);
  });
});
