import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { WebhookDocument } from './projection';
import { refusedUrl, WEBHOOK_URL_FORM } from './url-policy';
import { HttpError } from '../shared/http/envelope';
import type { Refusal } from '../shared/http/endpoints';

export type WebhookView = z.infer<ReturnType<typeof webhookSchemas>['webhookSchema']>;

export const view = ({ id, url, events, created_at }: WebhookDocument): WebhookView => ({
  id,
  url,
  events,
  created_at,
});

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The webhook schemas, with the event types the slices registered. */
export function webhookSchemas(eventTypes: readonly string[], prefix = '') {
  const types = eventTypes as [string, ...string[]];
  const webhookSchema = z
    .object({ id: z.string(), url: z.string(), events: z.array(z.enum(types)), created_at: z.iso.datetime() })
    .meta({ id: `${prefix}Webhook` });
  const createdWebhookSchema = webhookSchema
    .extend({
      secret: z.string().meta({ description: 'whsec_…: verifies the webhook-signature header; shown this once' }),
    })
    .meta({ id: `Created${prefix}Webhook` });

  const registerBody = z.strictObject({
    // Checked by checkUrl, to answer its own reason (invalid_webhook_url); its form documented here.
    url: z
      .string()
      .max(2000, 'url must be at most 2000 characters')
      .meta({ ...WEBHOOK_URL_FORM, description: 'An http or https URL without credentials' }),
    events: z
      .array(z.enum(types, { error: `each event must be one of ${types.join(', ')}` }))
      .min(1, 'name at least one event')
      .refine((events) => new Set(events).size === events.length, 'an event is named twice')
      .meta({ override: { uniqueItems: true } }),
  });
  return { webhookSchema, createdWebhookSchema, registerBody };
}

/** What `checkUrl` refuses with, declared by every endpoint that calls it. */
export const invalidUrl: Refusal = {
  status: 422,
  reasons: ['invalid_webhook_url'],
  when: 'invalid_webhook_url: the URL is not one a webhook may reach; data.issues names url',
};

/** The same check at registration and at a change: the receiver must be one a webhook may reach. */
export async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refused = await refusedUrl(url, allowPrivate);
  if (refused) throw new HttpError(422, 'invalid_webhook_url', refused, [{ path: 'url', message: refused }]);
}
