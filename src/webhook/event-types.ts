import { CredentialEvent } from '../credential/decider';
import { RecordedEvent } from '../stores/ports';

/** What a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'credential.applied',
  'credential.approved',
  'credential.rejected',
  'credential.claimed',
  'credential.rotated',
  'credential.revoked',
  'credential.expiring',
  'credential.expired',
  'scope.requested',
  'scope.approved',
  'scope.rejected',
  'scope.revoked',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const BY_DOMAIN_TYPE: Partial<Record<CredentialEvent['type'], WebhookEventType>> = {
  CredentialApplied: 'credential.applied',
  CredentialApproved: 'credential.approved',
  CredentialRejected: 'credential.rejected',
  CredentialClaimed: 'credential.claimed',
  KeyRotated: 'credential.rotated',
  CredentialRevoked: 'credential.revoked',
  ScopeRequested: 'scope.requested',
  ScopeApproved: 'scope.approved',
  ScopeRejected: 'scope.rejected',
  ScopeRevoked: 'scope.revoked',
  CredentialExpiring: 'credential.expiring',
  CredentialExpired: 'credential.expired',
};

/** The webhook event type a logged event is told as; undefined when no webhook hears of it. */
export function webhookTypeOf(eventType: string): WebhookEventType | undefined {
  return BY_DOMAIN_TYPE[eventType as CredentialEvent['type']];
}

export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

// Named fields only: a key digest, or any field added later, never reaches a receiver by accident.
const TOLD = ['member_id', 'apiid', 'scope', 'reason', 'expires_at', 'days_before'] as const;

/** The body a webhook receives for a logged event: who and what, never a key or a digest. */
export function payloadOf(type: WebhookEventType, event: Pick<RecordedEvent, 'data' | 'metadata'>, username: string | null): WebhookPayload {
  const data: Record<string, unknown> = {};
  for (const field of TOLD) if (event.data[field] !== undefined) data[field] = event.data[field];
  if (event.metadata.reason !== undefined && data.reason === undefined) data.reason = event.metadata.reason;
  return { type, timestamp: event.metadata.time, data: { ...data, username } };
}
