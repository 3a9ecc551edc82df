import type { RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import type { EventMetadata, Position, RecordedEvent } from '../ports';
import { toPortRevision } from './revisions';

export class UnreadableEventError extends Error {
  constructor(event: { streamId: string; revision: bigint }, why: string) {
    super(`event ${event.streamId}@${event.revision} cannot be read: ${why}`);
    this.name = 'UnreadableEventError';
  }
}

/** Events the server writes for itself; none of them is ever the port's. */
export function isSystemEvent(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

export function positionOf(event: ClientRecordedEvent): NonNullable<ClientRecordedEvent['position']> {
  if (!event.position) {
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
