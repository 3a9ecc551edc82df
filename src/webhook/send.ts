import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { DeliveryDocument, DeliveryExchange } from './deliveries';
import { postJson, RefusedAddress } from './post';
import type { WebhookDocument } from './projection';
import type { WebhookSecrets } from './secrets';

const SEND_TIMEOUT_MS = 10_000;

export interface SendOptions {
  /** WEBHOOK_ALLOW_PRIVATE: receivers on loopback and private addresses may be sent to. */
  allowPrivate: boolean;
  /** Opens the sealed secrets that sign the deliveries. */
  secrets: WebhookSecrets;
  /** Told why a delivery went unanswered; the exchange recorded says it too. */
  log?: Logger;
  timeoutMs?: number;
}

/**
 * One signed POST of a delivery (Standard Webhooks), and what was exchanged: the request's headers
 * (the signature, never the secret) and body, the receiver's status and first bytes, how long it
 * took. Null when the webhook was removed meanwhile (its data key is gone): nothing is sent.
 */
export async function sendDelivery(
  hook: WebhookDocument,
  delivery: DeliveryDocument,
  options: SendOptions,
): Promise<DeliveryExchange | null> {
  const secret = await options.secrets.open(hook.id, hook);
  if (secret === null) return null;
  const body = JSON.stringify(delivery.payload);
  const sentAt = new Date();
  const headers = {
    'content-type': 'application/json',
    'webhook-id': delivery.id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(delivery.id, sentAt, body),
  };
  const started = performance.now();
  const exchanged = (response: DeliveryExchange['response'], error: string | null): DeliveryExchange => ({
    sent_at: sentAt.toISOString(),
    request: { headers, body },
    response,
    error,
    duration_ms: Math.round(performance.now() - started),
  });
  const where = { webhook_id: hook.id, delivery_id: delivery.id };
  try {
    return exchanged(
      await postJson(hook.url, headers, body, {
        allowPrivate: options.allowPrivate,
        timeoutMs: options.timeoutMs ?? SEND_TIMEOUT_MS,
      }),
      null,
    );
  } catch (err) {
    if (err instanceof RefusedAddress) {
      options.log?.warn(
        { ...where, address: err.address },
        'a webhook delivery was not sent: its host resolves to a private address',
      );
      return exchanged(null, `not sent: ${err.message}`);
    }
    options.log?.info({ err, ...where }, 'a webhook delivery got no answer');
    return exchanged(null, err instanceof Error ? err.message : String(err));
  }
}
