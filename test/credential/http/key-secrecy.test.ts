import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiKeyDigest } from '../../../src/credential/api-key';
import { PROJECTIONS } from '../../../src/compose';
import { activePartner, openCall, rotate } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

/** Every byte the embedded store wrote: the database, its write-ahead log and shared memory. */
function storeFiles(): Buffer {
  return Buffer.concat(readdirSync(t.dataDir).map((name) => readFileSync(join(t.dataDir, name))));
}

async function allReadModels(): Promise<string> {
  const collections = PROJECTIONS.map((p) => p.collection.name);
  const docs = await Promise.all(collections.map((c) => t.platform.stores.documents.find(c, {})));
  return JSON.stringify(docs);
}

describe('the clear API key', () => {
  it('is in no event, no read model, no session, no file of the store and no log line', async () => {
    const p = await activePartner(t);
    const rotatedKey = await rotate(p, { grace_seconds: 60 });
    await openCall(t, '/open/addons', p.apiid, p.apikey).expect(200);
    await openCall(t, '/open/addons', p.apiid, rotatedKey).expect(200);
    await openCall(t, '/open/addons', p.apiid, `${rotatedKey}x`).expect(401);

    const files = storeFiles();
    const readModels = await allReadModels();
    const events = JSON.stringify(await t.allEvents());
    const logs = t.logLines.join('\n');

    // The searches can find what is there: the API id and the digests are stored on purpose.
    expect(files.includes(p.apiid)).toBe(true);
    expect(readModels).toContain(apiKeyDigest(p.apikey));
    expect(events).toContain(apiKeyDigest(rotatedKey));

    for (const key of [p.apikey, rotatedKey]) {
      // The random part alone, so that no encoding of the prefix could hide a match.
      const secret = key.slice(3, 46);
      expect(files.includes(secret)).toBe(false);
      expect(readModels).not.toContain(secret);
      expect(events).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});

describe('a key sent where it does not belong', () => {
  it('is masked in the answers and log lines that echo a path or a request id', async () => {
    const p = await activePartner(t);
    const secret = p.apikey.slice(3, 46);
    const linesBefore = t.logLines.length;
    const inPath = await openCall(t, `/open/addons/${p.apikey}`, p.apiid, p.apikey).expect(404);
    expect(inPath.body.message).toContain('/open/addons/sk_[redacted]');
    const wrongMethod = await t.client().post(`/api/v1/open/addons`).set('X-Request-Id', p.apikey).send({});
    expect(wrongMethod.status).toBe(405);
    const inConsole = await t.client().get(`/ui/assets/${p.apikey}.js`).expect(404);
    expect(inConsole.body.message).toContain('/ui/assets/sk_[redacted].js');
    // A query parameter named after the key: the message and the issue naming it.
    const asParameter = await openCall(t, `/open/addons?${p.apikey}=1`, p.apiid, p.apikey).expect(422);
    expect(asParameter.body.data.issues).toEqual([expect.objectContaining({ path: 'sk_[redacted]' })]);

    // Percent-encoded: the raw path the log and the 404 see still spells the key.
    const encoded = await openCall(
      t,
      `/open/addons/%73k${p.apikey.slice(2).replace('_', '%5F')}`,
      p.apiid,
      p.apikey,
    ).expect(404);
    expect(encoded.body.message).toContain('/open/addons/sk_[redacted]');

    const answers = JSON.stringify([inPath.body, wrongMethod.body, inConsole.body, asParameter.body, encoded.body]);
    const logs = t.logLines.slice(linesBefore).join('\n');
    expect(logs).toContain('sk_[redacted]');
    expect(answers).not.toContain(secret);
    expect(logs).not.toContain(secret);
  });
});
