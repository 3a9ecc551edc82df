import { WebhookEvent } from './decider';
import { Projection } from '../shared/projections/projection';

/** A registered webhook, secret included (for the notifier); the endpoints never show the secret after creation. */
export interface WebhookDocument {
  id: string;
  url: string;
  events: string[];
  secret: string;
  created_at: string;
  /** Where it was registered in the log: only later events are delivered to it. */
  registered_at_position: string;
}

export const webhooksProjection: Projection<WebhookDocument, WebhookEvent> = {
  name: 'webhooks',
  version: 1,
  collection: { name: 'webhooks', indexes: [] },
  handles: ['WebhookRegistered', 'WebhookRemoved'],
  documentIds: (event) => [event.data.webhook_id],
  evolve(_doc, event) {
    if (event.type === 'WebhookRemoved') return null;
    const { webhook_id, url, events, secret } = event.data;
    return { id: webhook_id, url, events, secret, created_at: event.metadata.time, registered_at_position: event.position };
  },
};
