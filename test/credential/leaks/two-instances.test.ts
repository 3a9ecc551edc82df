import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { activePartner, openCall } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';
import { eventually } from '../../support/eventually';
import { postScanningReport, scanningKeysFile } from '../../support/secret-scanning';

const scanner = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const SCANNER_ID = 'test-scanner-key';

describe('a key reported on one API instance', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-leak-instances-'));
  let a: TestPlatform;
  let b: TestPlatform;

  beforeAll(async () => {
    const keys = scanningKeysFile([
      { key_identifier: SCANNER_ID, key: scanner.publicKey.export({ type: 'spki', format: 'pem' }) as string },
    ]);
    a = await startPlatform({ SECRET_SCANNING_KEYS_FILE: keys }, dir);
    b = await startPlatform({ PROJECTIONS: 'off', SECRET_SCANNING_KEYS_FILE: keys }, dir);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is refused by the other instance within the key ring's staleness bound (one second)", async () => {
    const p = await activePartner(a);
    await eventually(async () => (await openCall(b, '/open/addons', p.apiid, p.apikey)).status === 200, {
      what: 'the key accepted on the other instance',
    });
    const body = JSON.stringify([
      { token: p.apikey, type: 'platform_api_key', url: 'https://gist.github.com/x', source: 'gist_content' },
    ]);
    const signature = sign('sha256', Buffer.from(body), { key: scanner.privateKey, dsaEncoding: 'der' });
    const reported = performance.now();
    await postScanningReport(a, body, SCANNER_ID, signature.toString('base64')).expect(200);
    const refused = await eventually(
      async () => {
        const call = await openCall(b, '/open/addons', p.apiid, p.apikey);
        return call.status === 401 && call;
      },
      { every: 10, what: 'the other instance refusing the leaked key' },
    );
    expect(performance.now() - reported).toBeLessThan(1000);
    expect(refused.body.data.error).toBe('credential_leaked');
  });
});
