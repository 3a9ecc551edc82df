import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { TestPlatform } from './platform';

/**
 * GitHub's documented test vector (docs.github.com, "Secret scanning partner program"): its sample
 * payload, the test key's identifier, its signature over the payload, and the test public key.
 */
export const GITHUB_TEST_VECTOR = {
  payload: '[{"token":"some_token","type":"some_type","url":"some_url","source":"some_source"}]',
  identifier: 'f9525bf080f75b3506ca1ead061add62b8633a346606dc5fe544e29231c6ee0d',
  signature: 'MEUCIFLZzeK++IhS+y276SRk2Pe5LfDrfvTXu6iwKKcFGCrvAiEAhHN2kDOhy2I6eGkOFmxNkOJ+L2y8oQ9A2T9GGJo6WJY=',
  key: [
    '-----BEGIN PUBLIC KEY-----',
    'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEsz9ugWDj5jK5ELBK42ynytbo38gP',
    'HzZFI03Exwz8Lh/tCfL3YxwMdLjB+bMznsanlhK0RwcGP3IDb34kQDIo3Q==',
    '-----END PUBLIC KEY-----',
  ].join('\n'),
};

/** A SECRET_SCANNING_KEYS_FILE in the format of GitHub's public-keys endpoint: its test key, and any others. */
export function scanningKeysFile(others: { key_identifier: string; key: string }[] = []): string {
  const file = join(mkdtempSync(join(tmpdir(), 'platform-scanning-keys-')), 'keys.json');
  const test = { key_identifier: GITHUB_TEST_VECTOR.identifier, key: GITHUB_TEST_VECTOR.key };
  const keys = [test, ...others].map((key, i) => ({ ...key, is_current: i === 0 }));
  writeFileSync(file, JSON.stringify({ public_keys: keys }));
  return file;
}

/** A post to the secret-scanning endpoint as GitHub sends one. */
export function postScanningReport(t: TestPlatform, body: string, identifier: string, signature: string) {
  return request(t.server)
    .post('/api/v1/secret-scanning/github')
    .set('Content-Type', 'application/json')
    .set('GITHUB-PUBLIC-KEY-IDENTIFIER', identifier)
    .set('GITHUB-PUBLIC-KEY-SIGNATURE', signature)
    .send(body);
}
