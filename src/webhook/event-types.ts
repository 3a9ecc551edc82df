import { RecordedEvent } from '../stores/ports';

/**
 * What a webhook can subscribe to, and which logged event is told as which, are registered by the
 * slice each event belongs to (its `webhook` in the slice's events); src/compose.ts gathers them.
 */
export type WebhookEventType = string;

export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

// Named fields only: a key digest, or any field added later, never reaches a receiver by accident.
// A leak report tells where the key was found and which key, by its fingerprint (docs/credentials.md).
const TOLD = [
  'member_id',
  'apiid',
  'scope',
  'reason',
  'expires_at',
  'days_before',
  'key_fingerprint',
  'url',
  'source',
  'quarantined',
] as const;

/** The body a webhook receives for a logged event: who and what, never a key or a digest. */
export function payloadOf(
  type: WebhookEventType,
  event: Pick<RecordedEvent, 'data' | 'metadata'>,
  username: string | null,
): WebhookPayload {
  const data: Record<string, unknown> = {};
  for (const field of TOLD) if (event.data[field] !== undefined) data[field] = event.data[field];
  if (event.metadata.reason !== undefined && data.reason === undefined) data.reason = event.metadata.reason;
  return { type, timestamp: event.metadata.time, data: { ...data, username } };
}
