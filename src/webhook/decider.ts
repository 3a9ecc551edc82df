import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas } from '../shared/domain/events';

/** A webhook registration: one stream per webhook, registered once, removed once. */
export const webhookStream = (webhookId: string): string => `webhook-${webhookId}`;

export const webhookEventSchemas = {
  // The secret signs every delivery, so the notifier must read it back; the audit drops it by name.
  WebhookRegistered: z.object({ webhook_id: z.string(), url: z.string(), events: z.array(z.string()), secret: z.string() }),
  WebhookRemoved: z.object({ webhook_id: z.string() }),
} satisfies EventSchemas;

export type WebhookEvent = EventOf<typeof webhookEventSchemas>;

export type WebhookCommand =
  | { type: 'RegisterWebhook'; data: { webhook_id: string; url: string; events: string[]; secret: string } }
  | { type: 'RemoveWebhook'; data: { webhook_id: string } };

type WebhookState = 'none' | 'registered' | 'removed';

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: 'none',
  evolve: (_state, event) => (event.type === 'WebhookRegistered' ? 'registered' : 'removed'),
  decide(command, state) {
    if (command.type === 'RegisterWebhook') {
      if (state !== 'none') throw new DomainError('webhook_exists', 'a webhook with this id exists already');
      return [{ type: 'WebhookRegistered', data: command.data }];
    }
    if (state !== 'registered') throw new DomainError('webhook_not_found', 'there is no such webhook');
    return [{ type: 'WebhookRemoved', data: command.data }];
  },
};
