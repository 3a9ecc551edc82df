import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../support/eventually';
import { webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../support/platform';

const API = '/api/v1';

const dataDir = mkdtempSync(join(tmpdir(), 'developer-webhooks-'));
let t: TestPlatform;
let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await webhookReceiver();
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true }, dataDir);
});
afterAll(async () => {
  await t.close();
  await hook.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A developer signed in, having applied for a credential. */
async function developer() {
  const client = t.client();
  const member = await registerMember(client);
  const post = (path: string, body: object = {}) =>
    client.post(`${API}${path}`).set('X-CSRF-Token', member.token).send(body);
  await post('/developer/credential').expect(200);
  return { client, member, post, get: (path: string) => client.get(`${API}${path}`) };
}

async function approve(memberId: number) {
  const admin = t.client();
  const token = await logInAdmin(admin);
  await admin.post(`${API}/credentials/${memberId}/approve`).set('X-CSRF-Token', token).send({}).expect(200);
  return { admin, token };
}

describe('a developer’s own webhooks', () => {
  it('delivers the member’s own credential.approved, signed with the secret shown once, and nobody else’s', async () => {
    const dev = await developer();
    const other = await developer();
    const created = await dev.post('/developer/webhooks', { url: hook.url, events: ['credential.approved'] });
    expect(created.status).toBe(200);
    const { id, secret } = created.body.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect((await dev.get('/developer/webhooks').expect(200)).body.data.list).toEqual([
      { id, url: hook.url, events: ['credential.approved'], created_at: expect.any(String) },
    ]);
    expect(JSON.stringify((await dev.get(`/developer/webhooks/${id}`).expect(200)).body)).not.toContain(secret);

    await approve(other.member.id);
    const { admin, token } = await approve(dev.member.id);
    await eventually(() => hook.received.length > 0, { within: 8000, what: 'a delivery' });
    await new Promise((r) => setTimeout(r, 800));
    expect(hook.received).toHaveLength(1);
    const payload = new Webhook(secret).verify(
      hook.received[0]!.body,
      hook.received[0]!.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({ type: 'credential.approved', data: { member_id: dev.member.id } });
    const deliveries = (await dev.get(`/developer/webhooks/${id}/deliveries`).expect(200)).body.data.list;
    expect(deliveries).toMatchObject([{ event_type: 'credential.approved', status: 'delivered' }]);

    // Another member, and the administrators' list, do not see it.
    await expectRefusal(t, () => other.get(`/developer/webhooks/${id}`), 404, 'webhook_not_found');
    await expectRefusal(t, () => other.post(`/developer/webhooks/${id}/rotate-secret`), 404, 'webhook_not_found');
    expect((await other.get('/developer/webhooks').expect(200)).body.data.list).toEqual([]);
    const adminList = (await admin.get(`${API}/webhooks`).expect(200)).body.data.list as { id: string }[];
    expect(adminList.map((h) => h.id)).not.toContain(id);
    await expectRefusal(
      t,
      () => admin.delete(`${API}/webhooks/${id}`).set('X-CSRF-Token', token),
      404,
      'webhook_not_found',
    );
  });

  it('rotates the secret, test-sends a signed ping with the new one, and removes', async () => {
    const dev = await developer();
    const { id, secret } = (await dev.post('/developer/webhooks', { url: hook.url, events: ['scope.approved'] })).body
      .data;
    const rotated = await dev.post(`/developer/webhooks/${id}/rotate-secret`).expect(200);
    expect(rotated.body.data.secret).not.toBe(secret);
    const before = hook.received.length;
    const ping = await dev.post(`/developer/webhooks/${id}/test`).expect(200);
    expect(ping.body.data).toMatchObject({ event_type: 'ping', status: 'delivered', last_status_code: 204 });
    const sent = hook.received[before]!;
    expect(
      new Webhook(rotated.body.data.secret).verify(sent.body, sent.headers as Record<string, string>),
    ).toMatchObject({
      type: 'ping',
    });
    expect(() => new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).toThrow();
    await dev.client.delete(`${API}/developer/webhooks/${id}`).set('X-CSRF-Token', dev.member.token).expect(200);
    await expectRefusal(t, () => dev.get(`/developer/webhooks/${id}`), 404, 'webhook_not_found');
  });

  it('refuses events that are not about the member’s credential, a private-less URL rule, and nobody signed in', async () => {
    const dev = await developer();
    const refused = await expectRefusal(
      t,
      () => dev.post('/developer/webhooks', { url: hook.url, events: ['credential.applied'] }),
      422,
      'validation_failed',
    );
    expect(refused.body.message).toMatch(/credential\.approved/);
    await expectRefusal(
      t,
      () => dev.post('/developer/webhooks', { url: 'ftp://example.com/x', events: ['credential.approved'] }),
      422,
      'invalid_webhook_url',
    );
    await expectRefusal(t, () => request(t.server).get(`${API}/developer/webhooks`), 401, 'not_logged_in');
    expect((await dev.get('/developer/webhooks').expect(200)).body.data.list).toEqual([]);
  });

  it('holds at most 5 a member, even when 8 registrations race', async () => {
    const dev = await developer();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        dev.post('/developer/webhooks', { url: hook.url, events: ['credential.revoked'] }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 422, 422, 422]);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.data.error)).toEqual([
      'webhook_limit_reached',
      'webhook_limit_reached',
      'webhook_limit_reached',
    ]);
    expect((await dev.get('/developer/webhooks').expect(200)).body.data.list).toHaveLength(5);
  });
});
