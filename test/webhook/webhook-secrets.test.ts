import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { webhookSecretsOf, WebhookSecrets, WEBHOOK_KEYS } from '../../src/webhook/secrets';
import { webhookStream } from '../../src/webhook/decider';
import { parseSchedule } from '../../src/config';
import { approvedMember } from '../support/credentials';
import { eventually } from '../support/eventually';
import { Delivery, webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import { superAdmin } from '../support/addons';
import { registerWebhook } from '../support/webhooks';
import { expectRefusal, startPlatform, TestPlatform } from '../support/platform';

const API = '/api/v1';

let t: TestPlatform;
let receiver: WebhookReceiver;
let hookUrl: string;
beforeAll(async () => {
  receiver = await webhookReceiver();
  hookUrl = receiver.url;
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_RETRY_SCHEDULE: parseSchedule('1s') });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** Every file under the directory, with its bytes. */
function filesUnder(dir: string): [string, Buffer][] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [[path, readFileSync(path)] as [string, Buffer]];
  });
}

/** The files of the data directory holding the text or its base64 body, in any of these spellings. */
function filesHolding(secret: string): string[] {
  const body = secret.slice('whsec_'.length);
  const needles = [secret, body, Buffer.from(body, 'base64').toString('hex')].map((n) => Buffer.from(n));
  needles.push(Buffer.from(body, 'base64'));
  return filesUnder(t.dataDir)
    .filter(([, bytes]) => needles.some((needle) => bytes.includes(needle)))
    .map(([path]) => path);
}

/** Approves a new member's application and waits for the delivery of credential.approved. */
async function deliveryAfterApproval(): Promise<Delivery> {
  const before = receiver.received.length;
  await approvedMember(t);
  await eventually(() => receiver.received.length > before, { within: 8000, what: 'a delivery' });
  return receiver.received.at(-1)!;
}

const verifies = (secret: string, delivery: Delivery) => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/** A super administrator, logged in, who registered a webhook to the receiver. */
async function adminWithWebhook() {
  const browser = await superAdmin(t);
  const created = (await registerWebhook(browser, hookUrl)) as { id: string; secret: string; created_at: string };
  return { admin: browser.client, token: browser.token, created };
}

describe('webhook secrets at rest', () => {
  it('no file of the data directory holds the secret, and the key file is 0600', async () => {
    const { admin, token, created } = await adminWithWebhook();
    const { secret } = created;
    expect(secret).toMatch(/^whsec_/);
    expect(verifies(secret, await deliveryAfterApproval())).toBe(true);
    // Checkpointed into the database file, and whatever the log and the read models hold.
    expect(filesHolding(secret)).toEqual([]);
    expect(statSync(join(t.dataDir, 'webhook-secret.key')).mode & 0o777).toBe(0o600);
    await admin.delete(`${API}/webhooks/${created.id}`).set('X-CSRF-Token', token).expect(200);
  });

  it('rotation: the new secret, shown once, signs the deliveries from then on; the old one no more', async () => {
    const { admin, token, created } = await adminWithWebhook();
    const rotated = await admin
      .post(`${API}/webhooks/${created.id}/rotate-secret`)
      .set('X-CSRF-Token', token)
      .send({})
      .expect(200);
    expect(rotated.body.data).toEqual({
      id: created.id,
      url: hookUrl,
      events: ['credential.approved'],
      created_at: created.created_at,
      secret: expect.stringMatching(/^whsec_/),
    });
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(created.secret);
    const delivery = await deliveryAfterApproval();
    expect([verifies(fresh, delivery), verifies(created.secret, delivery)]).toEqual([true, false]);
    expect(filesHolding(fresh)).toEqual([]);
    const listed = (await admin.get(`${API}/webhooks`).expect(200)).body.data.list;
    expect(JSON.stringify(listed)).not.toContain(fresh);
    await expectRefusal(
      t,
      () => admin.post(`${API}/webhooks/${randomUUID()}/rotate-secret`).set('X-CSRF-Token', token).send({}),
      404,
      'webhook_not_found',
    );
    await expectRefusal(
      t,
      () => admin.post(`${API}/webhooks/${created.id}/rotate-secret`).send({}),
      419,
      'csrf_token_missing',
    );
    await admin.delete(`${API}/webhooks/${created.id}`).set('X-CSRF-Token', token).expect(200);
  });

  it('removing a webhook destroys its data key: the sealed secret left in the log opens no more', async () => {
    const { admin, token, created } = await adminWithWebhook();
    const [registered] = await t.platform.stores.events.readStream(webhookStream(created.id));
    const sealed = { sealed_secret: registered!.data.sealed_secret as string };
    const secrets = new WebhookSecrets(
      t.platform.stores.documents,
      readFileSync(join(t.dataDir, 'webhook-secret.key')),
    );
    expect(await secrets.open(created.id, sealed)).toBe(created.secret);

    await admin.delete(`${API}/webhooks/${created.id}`).set('X-CSRF-Token', token).expect(200);
    expect(await t.platform.stores.documents.get(WEBHOOK_KEYS.name, created.id)).toBeNull();
    expect(await secrets.open(created.id, sealed)).toBeNull();
    await expectRefusal(
      t,
      () => admin.post(`${API}/webhooks/${created.id}/rotate-secret`).set('X-CSRF-Token', token).send({}),
      404,
      'webhook_not_found',
    );
  });

  it('a removal recorded by a process that stopped before destroying the key: the next start destroys it', async () => {
    const { created } = await adminWithWebhook();
    const metadata = {
      actor: { kind: 'cli' as const, id: 'test' },
      request_id: 'crashed',
      time: new Date().toISOString(),
    };
    await t.platform.stores.events.append(
      webhookStream(created.id),
      [{ type: 'WebhookRemoved', data: { webhook_id: created.id }, metadata }],
      'any',
    );
    expect(await t.platform.stores.documents.get(WEBHOOK_KEYS.name, created.id)).not.toBeNull();
    await webhookSecretsOf({}, t.platform.stores).start(t.platform.stores.events);
    expect(await t.platform.stores.documents.get(WEBHOOK_KEYS.name, created.id)).toBeNull();
  });

  it('a webhook registered before sealing, its secret in clear in the log, keeps being signed for', async () => {
    const webhook_id = randomUUID();
    const secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
    const legacy = { webhook_id, url: hookUrl, events: ['credential.approved'], secret };
    await t.platform.stores.events.append(
      webhookStream(webhook_id),
      [
        {
          type: 'WebhookRegistered',
          data: legacy,
          metadata: { actor: { kind: 'cli', id: 'test' }, request_id: 'legacy', time: new Date().toISOString() },
        },
      ],
      'no_stream',
    );
    const delivery = await deliveryAfterApproval();
    expect(verifies(secret, delivery)).toBe(true);
    // The search of the data directory finds a secret that is there.
    expect(filesHolding(secret).length).toBeGreaterThan(0);
  });
});
