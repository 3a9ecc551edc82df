import type { RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import type { EventMetadata, Position, RecordedEvent } from '../ports';
import { toPortRevision } from './revisions';

export class UnreadableEventError extends Error {
  constructor(event: { streamId: string; revision: bigint }, why: string) {
    super(`event ${event.streamId}@${event.revision} cannot be read: ${why}`);
    this.name = 'UnreadableEventError';
  }
}

/** A store operation the server did not finish in time; whether a write took effect is unknown. */
export class OperationTimedOut extends Error {
  constructor(what: string, ms: number) {
    super(`${what}: no answer from KurrentDB within ${ms} ms`);
    this.name = 'OperationTimedOut';
  }
}

/**
 * Reads a whole client read within `ms`. The client's reads are async iterators over the native
 * bridge that take no deadline and cannot be cancelled, so the time limit is ours: past it the
 * read is abandoned (return() ends it at its next page) and the caller gets OperationTimedOut.
 */
export async function drainWithin<T>(read: AsyncIterableIterator<T>, ms: number, what: string): Promise<T[]> {
  const items: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OperationTimedOut(what, ms)), ms);
  });
  const drain = (async () => {
    for await (const item of read) items.push(item);
    return items;
  })();
  try {
    return await Promise.race([drain, timeout]);
  } catch (error) {
    if (error instanceof OperationTimedOut) {
      // The abandoned read may still fail later; nobody waits on it any more.
      drain.catch(() => undefined);
      void read.return?.().catch(() => undefined);
    }
    throw error;
  } finally {
    clearTimeout(timer);
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
  };
}
