import { randomUUID } from 'node:crypto';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint, Refusal } from '../shared/http/endpoints';
import { emptyBody } from '../shared/http/validate';
import { afterAttempt, DeliveryDocument, DELIVERIES, deliverySchema, deliveryView } from './deliveries';
import { writePosition } from '../shared/outbox';
import { webhookParams } from './params';
import type { WebhookDocument } from './projection';
import type { WebhookSecrets } from './secrets';
import { sendDelivery } from './send';
import type { DocumentStore, EventStore } from '../stores/ports';

/** The event type of a test send: no logged event is told as it, so no webhook subscribes to it. */
export const PING = 'ping';

/** A test send's delivery: a `ping` about the webhook itself, not yet attempted, sorted with the log's newest event. */
export function pingDelivery(hook: WebhookDocument, now: Date, head: string): DeliveryDocument {
  return {
    id: randomUUID(),
    webhook_id: hook.id,
    event_type: PING,
    payload: { type: PING, timestamp: now.toISOString(), data: { webhook_id: hook.id, url: hook.url } },
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    next_attempt_at: null,
    delivered_at: null,
    event_position: head,
    revision: 0,
  };
}

// Sent once, at once: an unanswered ping is dead rather than retried behind the administrator's back (Retry sends it again).
const NO_RETRY: number[] = [];

interface PingDeps {
  events: Pick<EventStore, 'headPosition'>;
  documents: DocumentStore;
  webhookAllowPrivate: boolean;
  webhookSecrets: WebhookSecrets;
}

/**
 * `POST /webhooks/{id}/test`: a signed `ping`, sent as every delivery is (the same signature, the
 * same address checks at connection), recorded among the webhook's deliveries and answered with
 * its outcome, so that its owner sees at once whether the receiver takes it. `existing`
 * finds the webhook this administrator may manage, else throws the refusal `refusals` declares.
 */
export function pingEndpoint(
  deps: PingDeps,
  existing: (ctx: AppContext, id: string) => Promise<WebhookDocument>,
  refusals: Refusal[],
  // The developers' own webhooks answer under /developer/webhooks, to the member who owns them.
  at: Pick<Endpoint, 'path' | 'caller'> = {
    path: '/webhooks/:id/test',
    caller: { kind: 'admin', permission: 'webhook.manage' },
  },
): Endpoint {
  return endpoint({
    method: 'POST',
    ...at,
    summary: 'Send a signed ping event to the webhook now; answers the delivery, recorded with the others',
    params: webhookParams,
    body: emptyBody,
    response: deliverySchema,
    refusals,
    handler: async (ctx, { params: { id } }) => {
      const hook = await existing(ctx, id);
      const ping = pingDelivery(hook, new Date(), await deps.events.headPosition());
      const exchange = await sendDelivery(hook, ping, {
        allowPrivate: deps.webhookAllowPrivate,
        secrets: deps.webhookSecrets,
      });
      const sent = afterAttempt(ping, exchange, Date.now(), NO_RETRY);
      await deps.documents.write([
        { collection: DELIVERIES.name, id: `${id}:${sent.id}`, doc: { ...sent }, position: writePosition(sent) },
      ]);
      const outcome =
        sent.status === 'delivered'
          ? `delivered: the receiver answered ${sent.last_status_code}`
          : `not delivered: ${exchange?.error ?? `the receiver answered ${sent.last_status_code}`}`;
      return { data: deliveryView(sent), message: outcome };
    },
  });
}
