import { z } from 'zod';
import { WebhookPayload } from './event-types';

/**
 * One event delivered to one webhook, attempt after attempt: pending until the first answer,
 * failed while retries remain, then dead; delivered once a receiver answers 2xx.
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dead'] as const;
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
      .object({ status: z.int(), body: z.string().meta({ description: "The first bytes of the receiver's body (at most 1024)" }) })
      .nullable()
      .meta({ description: 'null when the receiver did not answer' }),
    error: z.string().nullable().meta({ description: 'Why there is no answer: refused address, connection error, time-out' }),
    duration_ms: z.int().min(0),
  })
  .meta({ id: 'WebhookExchange' });
export type DeliveryExchange = z.infer<typeof exchangeSchema>;

export interface DeliveryDocument {
  /** The event's id: receivers drop a delivery they have seen by it. */
  id: string;
  webhook_id: string;
  event_type: string;
  payload: WebhookPayload;
  status: (typeof DELIVERY_STATUSES)[number];
  attempts: number;
  last_status_code: number | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  /** The last attempt's request and answer; absent before the first attempt and in deliveries recorded before it was kept. */
  last_exchange?: DeliveryExchange;
  /** The event's position, and how many times this document was written: together its write position. */
  event_position: string;
  revision: number;
}

export const deliverySchema = z
  .object({
    id: z.string(),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int().min(0),
    last_status_code: z.int().nullable().meta({ description: "The receiver's last HTTP status; null when it never answered" }),
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

/** Each write of a delivery lands after the previous one, under the store's position guard. */
export const writePosition = (d: DeliveryDocument): string => `${d.event_position}~${String(d.revision).padStart(6, '0')}`;

/** The delivery after an attempt (null: not sent, or no answer) at `now`, by the retry schedule (ms). */
export function afterAttempt(d: DeliveryDocument, exchange: DeliveryExchange | null, now: number, schedule: number[]): DeliveryDocument {
  const attempts = d.attempts + 1;
  const statusCode = exchange?.response?.status ?? null;
  const base = { ...d, attempts, last_status_code: statusCode, ...(exchange ? { last_exchange: exchange } : {}), revision: d.revision + 1 };
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    return { ...base, status: 'delivered', delivered_at: new Date(now).toISOString(), next_attempt_at: null };
  }
  const wait = schedule[attempts - 1];
  if (wait === undefined) return { ...base, status: 'dead', next_attempt_at: null };
  return { ...base, status: 'failed', next_attempt_at: new Date(now + wait).toISOString() };
}

/** A delivery an administrator asked to try again now; a delivered one is sent again too (receivers drop duplicates by id). */
export const retried = (d: DeliveryDocument, now: number): DeliveryDocument => ({
  ...d,
  status: 'pending',
  next_attempt_at: new Date(now).toISOString(),
  revision: d.revision + 1,
});
