import { createHash } from 'node:crypto';
import type { ExpectedRevision, NewEvent } from './ports';

/** Namespace of this service's event ids (a random UUID, fixed once): ids of other systems never collide with ours. */
const NAMESPACE = Buffer.from('6c1b0f0e4a5d4f8e9a3e2b7c5d1f0a93', 'hex');

/** The UUID of a name in this service's namespace: UUID version 5 (RFC 9562: SHA-1, name-based). */
export function uuidOf(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Deterministic event ids: the same request (or the same idempotency key) appending to the same
 * stream at the same expected revision gets the same ids, so an append retried after a timeout or
 * a dropped connection is recognised by the event store (KurrentDB's idempotent write check; the
 * SQLite adapter's unique id) and applied once. The stream and expected revision are part of the
 * name, so a request that appends twice, to two streams or after losing a race, never reuses an
 * id of its own.
 */
export function eventId(requestId: string, stream: string, expected: ExpectedRevision, index: number): string {
  return uuidOf(JSON.stringify([requestId, stream, String(expected), index]));
}

/**
 * The events with ids derived from `seed`, or from each one's own request id:
 * `store.append(stream, eventIds(stream, expected, events), expected)`.
 */
export function eventIds(stream: string, expected: ExpectedRevision, events: NewEvent[], seed?: string): NewEvent[] {
  return events.map((event, index) => ({
    ...event,
    id: eventId(seed ?? event.metadata.request_id, stream, expected, index),
  }));
}

/**
 * The first of the events a write under `seed` appended to the stream, if one did: a retry that
 * finds it knows its write is recorded, whatever the stream did since.
 */
export function writtenBy<Event extends { id?: string; revision: number }>(
  seed: string,
  stream: string,
  recorded: readonly Event[],
): Event | undefined {
  return recorded.find(
    (event) => event.id === eventId(seed, stream, event.revision === 0 ? 'no_stream' : event.revision - 1, 0),
  );
}
