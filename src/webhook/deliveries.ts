import { z } from 'zod';
import { WebhookPayload } from './event-types';
import { afterAttempt as outboxAfterAttempt, OUTBOX_STATUSES, OutboxEntry } from '../shared/outbox';

/**
 * One event delivered to one webhook: an outbox entry (src/shared/outbox.ts), delivered once a
 * receiver answers 2xx.
 */
export const DELIVERIES = { name: 'webhook_deliveries', indexes: ['webhook_id', 'status'] };

/** The last attempt, as sent and as answered: what an administrator reads to see why a receiver refused. */
export const exchangeSchema = z
  .object({
    sent_at: z.iso.datetime(),
    request: z.object({
      headers: z.record(z.string(), z.string()).meta({ description: 'As sent: the signature, never the secret' }),
      body: z.string(),
    }),
    response: z
      .object({
        status: z.int(),
        body: z.string().meta({ description: "The first bytes of the receiver's body (at most 1024)" }),
      })
      .nullable()
      .meta({ description: 'null when the receiver did not answer' }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why there is no answer: refused address, connection error, time-out' }),
    duration_ms: z.int().min(0),
  })
  .meta({ id: 'WebhookExchange' });
export type DeliveryExchange = z.infer<typeof exchangeSchema>;

export interface DeliveryDocument extends OutboxEntry {
  /** The event's id: receivers drop a delivery they have seen by it. */
  id: string;
  webhook_id: string;
  event_type: string;
  payload: WebhookPayload;
  last_status_code: number | null;
  /** The last attempt's request and answer; absent before the first attempt and in deliveries recorded before it was kept. */
  last_exchange?: DeliveryExchange;
}

export const deliverySchema = z
  .object({
    id: z.string(),
    event_type: z.string(),
    status: z.enum(OUTBOX_STATUSES),
    attempts: z.int().min(0),
    last_status_code: z
      .int()
      .nullable()
      .meta({ description: "The receiver's last HTTP status; null when it never answered" }),
    next_attempt_at: z.iso.datetime().nullable(),
    delivered_at: z.iso.datetime().nullable(),
    last_exchange: exchangeSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryView = (d: DeliveryDocument): z.infer<typeof deliverySchema> => ({
  id: d.id,
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.last_status_code,
  next_attempt_at: d.next_attempt_at,
  delivered_at: d.delivered_at,
  last_exchange: d.last_exchange ?? null,
});

/** The delivery after an attempt (null: not sent, or no answer) at `now`, by the retry schedule (ms): a 2xx delivers it. */
export function afterAttempt(
  d: DeliveryDocument,
  exchange: DeliveryExchange | null,
  now: number,
  schedule: number[],
): DeliveryDocument {
  const statusCode = exchange?.response?.status ?? null;
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const cause =
    statusCode !== null
      ? `the receiver answered ${statusCode}`
      : (exchange?.error ?? 'not sent: the webhook was removed');
  const next = outboxAfterAttempt(d, delivered ? { delivered } : { delivered, cause, permanent: false }, now, schedule);
  return { ...next, last_status_code: statusCode, ...(exchange ? { last_exchange: exchange } : {}) };
}
