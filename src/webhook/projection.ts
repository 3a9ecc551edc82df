import { WebhookEvent } from './decider';
import { Projection } from '../shared/projections/projection';
import type { StoredSecret } from './secrets';

/**
 * A registered webhook, its secret sealed (clear for webhooks registered before sealing) for the
 * notifier; the endpoints never show the secret after creation or rotation.
 */
export interface WebhookDocument extends StoredSecret {
  id: string;
  url: string;
  events: string[];
  /** The role group whose administrators see and manage it (null: super administrators only). */
  owner_role_id: number | null;
  /** The developer member whose own events it hears of (null: an administrators' webhook). Absent in documents made before: null. */
  owner_member_id?: number | null;
  created_at: string;
  /** Where it was registered in the log: only later events are delivered to it. */
  registered_at_position: string;
}

export const webhooksProjection: Projection<WebhookDocument, WebhookEvent> = {
  name: 'webhooks',
  version: 1,
  collection: { name: 'webhooks', indexes: [] },
  handles: ['WebhookRegistered', 'WebhookSecretRotated', 'WebhookChanged', 'WebhookRemoved'],
  documentIds: (event) => [event.data.webhook_id],
  evolve(doc, event) {
    if (event.type === 'WebhookRemoved') return null;
    if (event.type === 'WebhookChanged') return doc && { ...doc, url: event.data.url, events: event.data.events };
    if (event.type === 'WebhookSecretRotated') {
      if (!doc) return null;
      const { secret: _clear, ...rest } = doc;
      return { ...rest, sealed_secret: event.data.sealed_secret };
    }
    const { webhook_id, url, events, secret, sealed_secret, owner_role_id, owner_member_id } = event.data;
    const stored = sealed_secret === undefined ? { secret } : { sealed_secret };
    return {
      id: webhook_id,
      url,
      events,
      ...stored,
      owner_role_id: owner_role_id ?? null,
      owner_member_id: owner_member_id ?? null,
      created_at: event.metadata.time,
      registered_at_position: event.position,
    };
  },
};
