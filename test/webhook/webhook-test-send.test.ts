import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { roleAdmin, superAdmin, AdminBrowser } from '../support/addons';
import { expectRefusal, startPlatform, TestPlatform } from '../support/platform';
import { registerWebhook, webhookRoleGroup } from '../support/webhooks';
import { eventually } from '../support/eventually';
import { webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

const API = '/api/v1';

const dataDir = mkdtempSync(join(tmpdir(), 'webhook-ping-'));
let t: TestPlatform;
let taking: WebhookReceiver;
let refusing: WebhookReceiver;
beforeAll(async () => {
  // A long answer: more than the 1024 bytes a delivery keeps of it.
  const reply = { reply: `answer ${'x'.repeat(5000)}` };
  [taking, refusing] = [await webhookReceiver(202, reply), await webhookReceiver(503, reply)];
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true }, dataDir);
});
afterAll(async () => {
  await t.close();
  await taking.close();
  await refusing.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ping = (admin: AdminBrowser, id: string) =>
  admin.client.post(`${API}/webhooks/${id}/test`).set('X-CSRF-Token', admin.token).send({});

describe('POST /webhooks/{id}/test', () => {
  it('sends a ping signed with the webhook secret, answers the delivery and lists it with what was exchanged', async () => {
    const admin = await superAdmin(t);
    const { id, secret } = await registerWebhook(admin, taking.url);
    const res = await ping(admin, id).expect(200);
    expect(res.body.message).toMatch(/delivered/);

    const sent = taking.received.at(-1)!;
    const payload = new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>);
    expect(payload).toEqual({ type: 'ping', timestamp: expect.any(String), data: { webhook_id: id, url: taking.url } });
    const delivery = res.body.data;
    expect(delivery).toMatchObject({
      id: sent.headers['webhook-id'],
      event_type: 'ping',
      status: 'delivered',
      attempts: 1,
      last_status_code: 202,
    });
    expect(delivery.last_exchange.request).toEqual({
      headers: {
        'content-type': 'application/json',
        'webhook-id': delivery.id,
        'webhook-timestamp': sent.headers['webhook-timestamp'],
        'webhook-signature': sent.headers['webhook-signature'],
      },
      body: sent.body,
    });
    expect(delivery.last_exchange.response).toEqual({ status: 202, body: `answer ${'x'.repeat(1024 - 7)}` });
    expect(delivery.last_exchange.duration_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(delivery)).not.toContain(secret);
    expect(JSON.stringify(delivery)).not.toContain(secret.slice('whsec_'.length));

    const listed = (await admin.client.get(`${API}/webhooks/${id}/deliveries`).expect(200)).body.data.list;
    expect(listed).toEqual([delivery]);
  });

  it("answers a receiver's refusal as not delivered, recorded dead rather than retried, and Retry sends it again", async () => {
    const admin = await superAdmin(t);
    const { id } = await registerWebhook(admin, refusing.url);
    const res = await ping(admin, id).expect(200);
    expect(res.body.message).toBe('not delivered: the receiver answered 503');
    expect(res.body.data).toMatchObject({ status: 'dead', attempts: 1, last_status_code: 503, next_attempt_at: null });
    expect(res.body.data.last_exchange.response.body).toMatch(/^answer x+$/);
    const before = refusing.received.length;
    await admin.client
      .post(`${API}/webhooks/${id}/deliveries/${res.body.data.id}/retry`)
      .set('X-CSRF-Token', admin.token)
      .send({})
      .expect(200);
    await eventually(() => refusing.received.length > before, { what: 'the ping' });
    expect(JSON.parse(refusing.received.at(-1)!.body)).toMatchObject({ type: 'ping' });
  });

  it("only the webhook's role group (or a super administrator) may test it; a malformed body is refused; nothing is sent then", async () => {
    const group = (name: string) => webhookRoleGroup(t, name);
    const [owners, others] = [await roleAdmin(t, await group('Hooks')), await roleAdmin(t, await group('Others'))];
    const { id } = await registerWebhook(owners, taking.url);
    const before = taking.received.length;
    await expectRefusal(t, () => ping(others, id), 404, 'webhook_not_found');
    await expectRefusal(
      t,
      () =>
        owners.client
          .post(`${API}/webhooks/${id}/test`)
          .set('X-CSRF-Token', owners.token)
          .set('Content-Type', 'application/json')
          .send('{"oops'),
      422,
      'malformed_json',
    );
    await expectRefusal(t, () => ping(owners, '00000000-0000-4000-8000-000000000000'), 404, 'webhook_not_found');
    expect(taking.received.length).toBe(before);
    expect((await others.client.get(`${API}/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await owners.client.get(`${API}/webhooks/${id}/deliveries`).expect(200)).body.data.list).toEqual([]);
    await ping(owners, id).expect(200);
  });

  it('checks the address at the connection as deliveries do: a receiver on a private address is not sent to once they are refused', async () => {
    const admin = await superAdmin(t);
    const { id } = await registerWebhook(admin, taking.url);
    await t.close();
    t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: false }, dataDir);
    const strict = await superAdmin(t);
    const before = taking.received.length;
    const res = await ping(strict, id).expect(200);
    expect(res.body.data).toMatchObject({ status: 'dead', last_status_code: null });
    expect(res.body.data.last_exchange).toMatchObject({
      response: null,
      error: expect.stringMatching(/^not sent: .*127\.0\.0\.1.*private/),
    });
    expect(res.body.message).toMatch(/^not delivered: not sent/);
    expect(taking.received.length).toBe(before);
  });
});
