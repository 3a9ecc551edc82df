import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { parseSchedule } from '../../src/config';
import { approvedMember } from '../support/credentials';
import { eventually } from '../support/eventually';
import { Delivery, webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../support/platform';

const API = '/api/v1';

const settings = { WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_RETRY_SCHEDULE: parseSchedule('1s,2s,4s') };
const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-'));
let t: TestPlatform;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // 500 to the first delivery, then 204: the first is retried.
  receiver = await webhookReceiver((before) => (before.length === 0 ? 500 : 204));
  t = await startPlatform(settings, dataDir);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('signed webhooks', () => {
  it('delivers a decision signed, after a failed first attempt, once, and not again after a restart', async () => {
    const admin = t.client();
    const token = await logInAdmin(admin);
    const created = await admin
      .post(`${API}/webhooks`)
      .set('X-CSRF-Token', token)
      .send({ url: receiver.url, events: ['credential.approved'] })
      .expect(200);
    const { id, secret } = created.body.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    const listed = (await admin.get(`${API}/webhooks`).expect(200)).body.data.list;
    expect(listed).toEqual([
      { id, url: receiver.url, events: ['credential.approved'], created_at: expect.any(String) },
    ]);

    const { member } = await approvedMember(t);
    await eventually(() => receiver.received.some((r) => r.answered === 204), { within: 8000, what: 'the retry' });
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 204]);
    const [first, second] = receiver.received as [Delivery, Delivery];
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    // Verifies the signature, and throws on a wrong one.
    const payload = new Webhook(secret).verify(second.body, second.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toEqual({
      type: 'credential.approved',
      timestamp: expect.any(String),
      data: { member_id: member.id, username: member.username, expires_at: null },
    });
    expect(second.body).not.toMatch(/digest|apikey/i);

    const deliveries = (await admin.get(`${API}/webhooks/${id}/deliveries`).expect(200)).body.data.list;
    expect(deliveries).toEqual([
      {
        id: second.headers['webhook-id'],
        event_type: 'credential.approved',
        status: 'delivered',
        attempts: 2,
        last_status_code: 204,
        next_attempt_at: null,
        delivered_at: expect.any(String),
        // The last attempt as sent (signed, the secret nowhere) and as answered.
        last_exchange: {
          sent_at: expect.any(String),
          request: {
            headers: expect.objectContaining({
              'webhook-id': second.headers['webhook-id'],
              'webhook-signature': second.headers['webhook-signature'],
            }),
            body: second.body,
          },
          response: { status: 204, body: '' },
          error: null,
          duration_ms: expect.any(Number),
        },
      },
    ]);
    expect(JSON.stringify(deliveries)).not.toContain(secret.slice('whsec_'.length));

    await t.close();
    t = await startPlatform(settings, dataDir);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received).toHaveLength(2);

    // Sent again on request, under the same id.
    const again = t.client();
    const againToken = await logInAdmin(again);
    const deliveryId = String(second.headers['webhook-id']);
    const retried = await again
      .post(`${API}/webhooks/${id}/deliveries/${deliveryId}/retry`)
      .set('X-CSRF-Token', againToken)
      .send({})
      .expect(200);
    expect(retried.body.data.status).toBe('pending');
    await eventually(() => receiver.received.length === 3, { within: 8000, what: 'three deliveries' });
    expect(receiver.received[2]!.headers['webhook-id']).toBe(deliveryId);

    await again.delete(`${API}/webhooks/${id}`).set('X-CSRF-Token', againToken).expect(200);
    expect((await again.get(`${API}/webhooks`).expect(200)).body.data.list).toEqual([]);
    await expectRefusal(t, () => again.get(`${API}/webhooks/${id}/deliveries`), 404, 'webhook_not_found');
  });

  it("sends each webhook's deliveries in the order of the log, and a receiver that never answers holds up only its own", async () => {
    const types: string[] = [];
    const sockets = new Set<Socket>();
    const receiving = createServer((req, res) => {
      if (req.url === '/hang') return; // never answers: the notifier waits for its timeout
      let body = '';
      req.on('data', (chunk: Buffer) => (body += String(chunk)));
      req.on('end', () => {
        types.push((JSON.parse(body) as { type: string }).type);
        res.statusCode = 204;
        res.end();
      });
    });
    receiving.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => receiving.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(receiving.address() as AddressInfo).port}`;
    try {
      const admin = t.client();
      const token = await logInAdmin(admin);
      const events = ['credential.applied', 'credential.approved', 'credential.claimed'];
      await admin
        .post(`${API}/webhooks`)
        .set('X-CSRF-Token', token)
        .send({ url: `${base}/hang`, events })
        .expect(200);
      await admin
        .post(`${API}/webhooks`)
        .set('X-CSRF-Token', token)
        .send({ url: `${base}/fast`, events })
        .expect(200);
      const { developer, member } = await approvedMember(t);
      await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
      // Well within the 10 s the notifier gives the hanging receiver.
      await eventually(() => types.length === 3, { what: 'three event types' });
      expect(types).toEqual(events);
    } finally {
      for (const socket of sockets) socket.destroy();
      receiving.close();
    }
  });

  it('refuses loopback and private URLs unless WEBHOOK_ALLOW_PRIVATE, and anything but http(s)', async () => {
    const strict = await startPlatform({});
    try {
      const admin = strict.client();
      const token = await logInAdmin(admin);
      const register = (body: { url: string; events: string[] }) =>
        admin.post(`${API}/webhooks`).set('X-CSRF-Token', token).send(body);
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://10.1.2.3/x',
        'http://[::1]/x',
        'http://localhost/x',
        'ftp://example.com/x',
      ]) {
        await expectRefusal(strict, () => register({ url, events: ['scope.requested'] }), 422, 'invalid_webhook_url');
      }
      await expectRefusal(
        strict,
        () => register({ url: 'https://example.com/x', events: ['nope'] }),
        422,
        'validation_failed',
      );
    } finally {
      await strict.close();
    }
  });
});
