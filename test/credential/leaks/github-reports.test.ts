import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import request from 'supertest';
import { activePartner, openCall } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';
import { smtpSink } from '../../support/mail-sink';
import { eventually } from '../../support/eventually';
import { GITHUB_TEST_VECTOR, postScanningReport, scanningKeysFile } from '../../support/secret-scanning';

const ENDPOINT = '/api/v1/secret-scanning/github';
const GITHUB_TEST = GITHUB_TEST_VECTOR;

// A scanner key of the test's own, listed beside GitHub's, to sign reports of real keys.
const ours = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const OUR_ID = 'test-scanner-key';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const post = postScanningReport;

const signed = (t: TestPlatform, body: string) =>
  post(
    t,
    body,
    OUR_ID,
    sign('sha256', Buffer.from(body), { key: ours.privateKey, dsaEncoding: 'der' }).toString('base64'),
  );

describe("GitHub's secret-scanning reports", () => {
  let t: TestPlatform;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  // The member's own webhook, told of credential.leaked.
  let receiver: Server;
  const delivered: string[] = [];

  beforeAll(async () => {
    const keysFile = scanningKeysFile([
      { key_identifier: OUR_ID, key: ours.publicKey.export({ type: 'spki', format: 'pem' }) as string },
    ]);
    sink = await smtpSink();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += String(chunk)));
      req.on('end', () => {
        delivered.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t = await startPlatform({
      SECRET_SCANNING_KEYS_FILE: keysFile,
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      WEBHOOK_ALLOW_PRIVATE: true,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it("accepts GitHub's documented test vector, and answers its feedback: a token not ours is a false positive", async () => {
    const res = await post(t, GITHUB_TEST.payload, GITHUB_TEST.identifier, GITHUB_TEST.signature).expect(200);
    expect(res.body).toEqual([{ token_hash: sha256('some_token'), token_type: 'some_type', label: 'false_positive' }]);
  });

  it('refuses the test vector changed by one byte, or signed by a key it does not know, and records nothing', async () => {
    const before = (await t.allEvents()).length;
    const changed = GITHUB_TEST.payload.replace('some_token', 'some_tokem');
    const forged = await post(t, changed, GITHUB_TEST.identifier, GITHUB_TEST.signature).expect(401);
    expect(forged.body.data.error).toBe('signature_invalid');
    await post(t, GITHUB_TEST.payload, 'not-a-key', GITHUB_TEST.signature).expect(401);
    await request(t.server)
      .post(ENDPOINT)
      .set('Content-Type', 'application/json')
      .send(GITHUB_TEST.payload)
      .expect(401);
    expect((await t.allEvents()).length).toBe(before);
  });

  it('quarantines a real key within a second, tells its owner, and names the scanner and the URL in the audit', async () => {
    const p = await activePartner(t);
    expect((await openCall(t, '/open/addons', p.apiid, p.apikey)).status).toBe(200);
    const url = 'https://github.com/octo/leaky/blob/1/.env';
    const { port } = receiver.address() as AddressInfo;
    await p.developer
      .post('/api/v1/developer/webhooks')
      .set('X-CSRF-Token', p.member.token)
      .send({ url: `http://127.0.0.1:${port}/hook`, events: ['credential.leaked'] })
      .expect(200);
    const report = JSON.stringify([{ token: p.apikey, type: 'platform_api_key', url, source: 'content' }]);

    const started = Date.now();
    const res = await signed(t, report).expect(200);
    expect(res.body).toEqual([
      { token_hash: sha256(p.apikey), token_type: 'platform_api_key', label: 'true_positive' },
    ]);
    const refused = await eventually(
      async () => {
        const call = await openCall(t, '/open/addons', p.apiid, p.apikey);
        return call.status === 401 && call;
      },
      { what: 'the open API refusing the leaked key' },
    );
    expect(refused.body.data.error).toBe('credential_leaked');
    expect(Date.now() - started).toBeLessThan(1000);

    const leak = (await t.allEvents()).find((e) => e.type === 'KeyLeakReported' && e.data.member_id === p.member.id)!;
    expect(leak.metadata.actor).toEqual({ kind: 'scanner', id: 'github' });
    expect(leak.data).toMatchObject({ url, source: 'content', accepted: true, quarantined: true });
    expect(JSON.stringify(leak)).not.toContain(p.apikey);
    const search = await p.admin.get('/api/v1/audit/search').query({ type: 'KeyLeakReported' }).expect(200);
    expect(JSON.stringify(search.body.data)).toContain(url);

    const mail = await eventually(() => sink.mails.find((m) => m.subject === 'Your API key was found in public'), {
      what: "the owner's mail",
    });
    expect(mail.text).toContain(url);
    expect(mail.text).not.toContain(p.apikey);

    const dashboard = await p.developer.get('/api/v1/developer/dashboard').expect(200);
    expect(dashboard.body.data.credential.leak).toMatchObject({ url, source: 'content', quarantined: true });
    const queue = await p.admin
      .get('/api/v1/credentials')
      .query({ status: 'active', q: p.member.username })
      .expect(200);
    expect(queue.body.data.list[0].leak).toMatchObject({ url });

    const told = await eventually(() => delivered.find((body) => body.includes('credential.leaked')), {
      what: "the member's webhook told of credential.leaked",
    });
    expect(JSON.parse(told)).toMatchObject({ type: 'credential.leaked', data: { url, quarantined: true } });
    expect(told).not.toContain(p.apikey);

    // The member rotates: the new key works, the leaked one stays refused.
    const rotated = await p.developer
      .post('/api/v1/developer/rotate')
      .set('X-CSRF-Token', p.member.token)
      .send({ grace_seconds: 3600 })
      .expect(200);
    expect((await openCall(t, '/open/addons', p.apiid, rotated.body.data.apikey)).status).toBe(200);
    expect((await openCall(t, '/open/addons', p.apiid, p.apikey)).body.data.error).toBe('credential_leaked');
    // The reported key went through the service: into no log line.
    expect(t.logLines.join('\n')).not.toContain(p.apikey);
  });

  it('records the same report twice once', async () => {
    const p = await activePartner(t);
    const report = JSON.stringify([
      { token: p.apikey, type: 'platform_api_key', url: 'https://x.test/a', source: 'content' },
    ]);
    await signed(t, report).expect(200);
    await signed(t, report).expect(200);
    const leaks = (await t.allEvents()).filter((e) => e.type === 'KeyLeakReported' && e.data.member_id === p.member.id);
    expect(leaks).toHaveLength(1);
  });

  it('refuses a body that is not an array of matches, after its signature holds', async () => {
    const res = await signed(t, JSON.stringify({ token: 'x' })).expect(422);
    expect(res.body.data.error).toBe('validation_failed');
  });
});

describe('administrators report a key found elsewhere', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startPlatform();
  });
  afterAll(() => t.close());

  it('quarantines it with the administrator as actor, and tells a string never issued apart', async () => {
    const p = await activePartner(t);
    const res = await p.admin
      .post('/api/v1/credentials/leaks')
      .set('X-CSRF-Token', p.adminToken)
      .send({ token: p.apikey, url: 'https://tickets.example.com/1234', note: 'pasted into a support ticket' })
      .expect(200);
    expect(res.body.data).toMatchObject({ label: 'true_positive', member_id: p.member.id, quarantined: true });
    expect(JSON.stringify(res.body)).not.toContain(p.apikey);
    const leak = (await t.allEvents()).find((e) => e.type === 'KeyLeakReported')!;
    expect(leak.metadata.actor.kind).toBe('admin');
    expect(leak.data.note).toBe('pasted into a support ticket');

    const again = await p.admin
      .post('/api/v1/credentials/leaks')
      .set('X-CSRF-Token', p.adminToken)
      .send({ token: p.apikey, url: 'https://tickets.example.com/1234' })
      .expect(200);
    expect(again.body.data.recorded).toBe(false);
    const other = await p.admin
      .post('/api/v1/credentials/leaks')
      .set('X-CSRF-Token', p.adminToken)
      .send({ token: 'sk_not_ours' })
      .expect(200);
    expect(other.body.data).toMatchObject({ label: 'false_positive', member_id: null });
  });
});
