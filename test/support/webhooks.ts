import { defineRoleGroup } from '../../src/access/groups';
import { SHELL } from '../../src/access/grantor';
import { cliContext, type AdminBrowser } from './addons';
import type { TestPlatform } from './platform';
import { REGISTRY } from './registry';

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

/** A new role group holding webhook.manage only, defined from the shell; answers its id. */
export async function webhookRoleGroup(t: TestPlatform, name: string): Promise<number> {
  const permissions = { name, permissions: ['webhook.manage'] };
  const by = { registered: REGISTRY.permissions, by: SHELL };
  return (await defineRoleGroup(t.platform.stores.events, permissions, by, cliContext())).id;
}
