import type { AdminBrowser } from './addons';

/**
 * Registers a webhook as this administrator and answers it with its secret; a role group defined a
 * moment ago may not be in its read model yet, so a refusal is tried again for a while.
 */
export async function registerWebhook(
  admin: AdminBrowser,
  url: string,
  events = ['credential.approved'],
): Promise<{ id: string; secret: string }> {
  for (let tries = 0; ; tries++) {
    const res = await admin.client.post('/api/v1/webhooks').set('X-CSRF-Token', admin.token).send({ url, events });
    if (res.status === 200) return res.body.data as { id: string; secret: string };
    if (tries > 50) throw new Error(`registration answered ${res.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
