import { Decider, DomainError } from '../shared/domain/decider';
import type { WebhookEvent } from './decider';

/**
 * A developer member's own webhooks: one stream per member holds the registrations, rotations and
 * removals of all of them, so the limit is decided on one stream (its expected revision makes
 * concurrent registrations decide one after the other). The events are the webhooks' own, so the
 * webhooks read model and the notifier treat them as any other.
 */
export const developerWebhooksStream = (memberId: number): string => `developer-webhooks-${memberId}`;

/** How many webhooks a member may hold at once. */
export const DEVELOPER_WEBHOOK_LIMIT = 5;

export type DeveloperWebhookCommand =
  | {
      type: 'RegisterWebhook';
      data: { webhook_id: string; url: string; events: string[]; sealed_secret: string; owner_member_id: number };
    }
  | { type: 'RotateWebhookSecret'; data: { webhook_id: string; sealed_secret: string } }
  | { type: 'RemoveWebhook'; data: { webhook_id: string } };

/** The ids of the member's webhooks not removed. */
type DeveloperWebhooks = readonly string[];

export const developerWebhooksDecider: Decider<DeveloperWebhookCommand, WebhookEvent, DeveloperWebhooks> = {
  initialState: [],
  evolve: (live, event) =>
    event.type === 'WebhookRegistered'
      ? [...live, event.data.webhook_id]
      : event.type === 'WebhookRemoved'
        ? live.filter((id) => id !== event.data.webhook_id)
        : live,
  decide(command, live) {
    const id = command.data.webhook_id;
    if (command.type === 'RegisterWebhook') {
      if (live.includes(id)) throw new DomainError('webhook_exists', 'a webhook with this id exists already');
      if (live.length >= DEVELOPER_WEBHOOK_LIMIT)
        throw new DomainError(
          'webhook_limit_reached',
          `a developer holds at most ${DEVELOPER_WEBHOOK_LIMIT} webhooks: remove one first (DELETE /developer/webhooks/{id})`,
        );
      return [{ type: 'WebhookRegistered', data: { ...command.data, owner_role_id: null } }];
    }
    if (!live.includes(id)) throw new DomainError('webhook_not_found', `there is no webhook ${id}`);
    if (command.type === 'RotateWebhookSecret') return [{ type: 'WebhookSecretRotated', data: command.data }];
    return [{ type: 'WebhookRemoved', data: command.data }];
  },
};
