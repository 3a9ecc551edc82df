import { createHash } from 'node:crypto';
import type { ExpectedRevision, NewEvent } from './ports';

/** Namespace of this service's event ids (a random UUID, fixed once): ids of other systems never collide with ours. */
const NAMESPACE = Buffer.from('6c1b0f0e4a5d4f8e9a3e2b7c5d1f0a93', 'hex');

/**
 * Deterministic event ids: the same request appending to the same stream at the same expected
 * revision gets the same ids, so an append retried after a timeout or a dropped connection is
 * recognised by the event store (KurrentDB's idempotent write check; the SQLite adapter's unique
 * id) and applied once. The stream and expected revision are part of the name, so a request that
 * appends twice, to two streams or after losing a race, never reuses an id of its own.
 * UUID version 5 (RFC 9562: SHA-1, name-based).
 */
export function eventId(requestId: string, stream: string, expected: ExpectedRevision, index: number): string {
  const name = JSON.stringify([requestId, stream, String(expected), index]);
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The events with ids derived from their own request id: `store.append(stream, eventIds(stream, expected, events), expected)`. */
export function eventIds(stream: string, expected: ExpectedRevision, events: NewEvent[]): NewEvent[] {
  return events.map((event, index) => ({ ...event, id: eventId(event.metadata.request_id, stream, expected, index) }));
}
