import type { RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import type { EventMetadata, Position, RecordedEvent } from '../ports';
import { toPortRevision } from './revisions';

export class UnreadableEventError extends Error {
  constructor(event: { streamId: string; revision: bigint }, why: string) {
    super(`event ${event.streamId}@${event.revision} cannot be read: ${why}`);
    this.name = 'UnreadableEventError';
  }
}

/**
 * Whether an event in $all is one this service could have written: not the server's own (a `$`
 * type or stream), and JSON with an object as its data, as every append of the service is. Others
 * (another application sharing the database) are passed over: one event in a form the service
 * never writes must not stop every projection at its position.
 */
export function isServiceEvent(event: Pick<ClientRecordedEvent, 'type' | 'streamId' | 'isJson' | 'data'>): boolean {
  if (event.type.startsWith('$') || event.streamId.startsWith('$')) return false;
  return event.isJson && typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data);
}

/** What servers before 22.6 answer, instead of none, for the log position of an event read from a stream. */
const NO_POSITION = 2n ** 64n - 1n;

export function positionOf(event: ClientRecordedEvent): NonNullable<ClientRecordedEvent['position']> {
  if (!event.position || event.position.commit === NO_POSITION) {
    throw new UnreadableEventError(event, 'the server returned no log position (servers before 22.6 do not)');
  }
  return event.position;
}

export function toRecorded(event: ClientRecordedEvent, position: Position): RecordedEvent {
  if (!event.isJson) throw new UnreadableEventError(event, 'its content is not JSON');
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UnreadableEventError(event, 'its data is not a JSON object');
  }
  return {
    stream: event.streamId,
    revision: toPortRevision(event.revision),
    position,
    type: event.type,
    data: data as Record<string, unknown>,
    metadata: event.metadata as unknown as EventMetadata,
    id: event.id,
  };
}
