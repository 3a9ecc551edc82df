import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { scanningKeysFromUrl } from '../../../src/credential';
import { GITHUB_TEST_VECTOR } from '../../support/secret-scanning';

const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' });

/** GitHub's public-keys endpoint, as a loopback server whose list and answers a test changes. */
async function keysEndpoint() {
  const served = {
    fetches: 0,
    status: 200,
    keys: [{ key_identifier: GITHUB_TEST_VECTOR.identifier, key: GITHUB_TEST_VECTOR.key }],
  };
  const server: Server = createServer((_req, res) => {
    served.fetches += 1;
    const body = { public_keys: served.keys.map((key) => ({ ...key, is_current: true })) };
    res.writeHead(served.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { served, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys` };
}

describe("GitHub's secret-scanning keys from SECRET_SCANNING_KEYS_URL", () => {
  let endpoint: Awaited<ReturnType<typeof keysEndpoint>>;
  let clock = 0;
  beforeEach(async () => {
    endpoint = await keysEndpoint();
    clock = 1_000_000;
  });
  afterEach(() => new Promise<void>((resolve) => endpoint.server.close(() => resolve())));

  it('fetches the list once, and again for an unknown identifier at most once a minute', async () => {
    const keys = scanningKeysFromUrl(endpoint.url, () => clock);
    expect(await keys.keyFor(GITHUB_TEST_VECTOR.identifier)).not.toBeNull();
    expect(await keys.keyFor(GITHUB_TEST_VECTOR.identifier)).not.toBeNull();
    expect(endpoint.served.fetches).toBe(1);

    // GitHub starts signing with a new key: not known until the list is fetched again.
    endpoint.served.keys.push({ key_identifier: 'new-key', key: other as string });
    expect(await keys.keyFor('new-key')).toBeNull();
    expect(endpoint.served.fetches).toBe(1);
    clock += 60_000;
    expect(await keys.keyFor('new-key')).not.toBeNull();
    expect(endpoint.served.fetches).toBe(2);

    // Made-up identifiers cost no fetch within the minute.
    for (const id of ['made-up-1', 'made-up-2', 'made-up-3']) expect(await keys.keyFor(id)).toBeNull();
    expect(endpoint.served.fetches).toBe(2);
  });

  it('keeps the keys it has when a later fetch fails, and leaves out what is not a P-256 key', async () => {
    endpoint.served.keys.push({ key_identifier: 'rsa-key', key: rsa as string });
    const keys = scanningKeysFromUrl(endpoint.url, () => clock);
    expect(await keys.keyFor('rsa-key')).toBeNull();
    endpoint.served.status = 503;
    clock += 60_000;
    expect(await keys.keyFor('unknown')).toBeNull();
    expect(await keys.keyFor(GITHUB_TEST_VECTOR.identifier)).not.toBeNull();
  });

  it('says the keys cannot be read when no list was ever fetched', async () => {
    endpoint.served.status = 500;
    const keys = scanningKeysFromUrl(endpoint.url, () => clock);
    await expect(keys.keyFor(GITHUB_TEST_VECTOR.identifier)).rejects.toThrow(/cannot be read/);
  });
});
