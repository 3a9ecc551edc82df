import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import type { EventOf, EventSchemas } from '../shared/domain/events';

/** A webhook registration: one stream per webhook, registered once, changed any number of times, removed once. */
export const webhookStream = (webhookId: string): string => `webhook-${webhookId}`;

export const webhookEventSchemas = {
  // The secret signs every delivery, so the notifier must read it back: sealed under the webhook's
  // data key (secrets.ts); events written before sealing hold it in clear. The audit drops both by name.
  WebhookRegistered: z.object({
    webhook_id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    secret: z.string().optional(),
    sealed_secret: z.string().optional(),
    // The role group of the administrator who registered it: its owner (null: no group, super
    // administrators only). Absent in events written before webhooks had owners: the same.
    owner_role_id: z.int().nullable().optional(),
    // The developer member who registered it for their own credential's events (developer-decider.ts);
    // absent for administrators' webhooks.
    owner_member_id: z.int().min(1).optional(),
  }),
  WebhookSecretRotated: z.object({ webhook_id: z.string(), sealed_secret: z.string() }),
  // The whole new subscription: the URL and the event list as they are from now on.
  WebhookChanged: z.object({ webhook_id: z.string(), url: z.string(), events: z.array(z.string()) }),
  WebhookRemoved: z.object({ webhook_id: z.string() }),
} satisfies EventSchemas;

export type WebhookEvent = EventOf<typeof webhookEventSchemas>;

export type WebhookCommand =
  | {
      type: 'RegisterWebhook';
      data: { webhook_id: string; url: string; events: string[]; sealed_secret: string; owner_role_id: number | null };
    }
  | { type: 'RotateWebhookSecret'; data: { webhook_id: string; sealed_secret: string } }
  | { type: 'ChangeWebhook'; data: { webhook_id: string; url: string; events: string[] } }
  | { type: 'RemoveWebhook'; data: { webhook_id: string } };

type WebhookState = 'none' | 'registered' | 'removed';

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: 'none',
  evolve: (state, event) =>
    event.type === 'WebhookRemoved' ? 'removed' : event.type === 'WebhookRegistered' ? 'registered' : state,
  decide(command, state) {
    if (command.type === 'RegisterWebhook') {
      if (state !== 'none') throw new DomainError('webhook_exists', 'a webhook with this id exists already');
      return [{ type: 'WebhookRegistered', data: command.data }];
    }
    if (state !== 'registered') throw new DomainError('webhook_not_found', 'there is no such webhook');
    if (command.type === 'RotateWebhookSecret') return [{ type: 'WebhookSecretRotated', data: command.data }];
    if (command.type === 'ChangeWebhook') return [{ type: 'WebhookChanged', data: command.data }];
    return [{ type: 'WebhookRemoved', data: command.data }];
  },
};
