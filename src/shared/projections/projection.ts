import { DomainEvent } from '../domain/decider';
import { decodeEvent, Recorded } from '../domain/events';
import { CollectionSpec, RecordedEvent } from '../../stores/ports';

/**
 * A read model: pure functions from a slice's own events to one collection of documents. The
 * runner does the I/O and hands it only the event types it handles; a projection never sees a
 * store, nor an event of another slice.
 */
export interface Projection<Doc extends object = object, Event extends DomainEvent = DomainEvent> {
  name: string;
  /** Raised whenever evolve changes meaning, so that stored read models get rebuilt. */
  version: number;
  collection: CollectionSpec;
  /** What a caller is told (503) when an in-memory replica of it cannot answer; by default that the read model cannot be read. */
  unavailable?: { error: string; what: string };
  /** The event types this read model reads; every other event passes it by. */
  handles: readonly Event['type'][];
  /** The documents an event it handles changes. */
  documentIds(event: Recorded<Event>): string[];
  /** The document after the event; null deletes it. */
  evolve(doc: Doc | null, event: Recorded<Event>): Doc | null;
}

/** The documents an event changes in a projection's read model; none for an event it does not handle. */
export function documentsOf(projection: Projection, event: RecordedEvent): string[] {
  return projection.handles.includes(event.type) ? projection.documentIds(event) : [];
}

/**
 * The last event decoded, and its decoding (its current shape, or why it has none). A rebuild or
 * runner applies one event to every projection before the next, so one slot is enough for each
 * event to be decoded once, not once per projection, at no cost in memory or garbage collection.
 */
let lastEvent: RecordedEvent | undefined;
let lastDecoding: RecordedEvent | Error | undefined;

function decodeOnce(event: RecordedEvent): RecordedEvent {
  if (event !== lastEvent) {
    try {
      lastDecoding = decodeEvent(event);
    } catch (err) {
      lastDecoding = err instanceof Error ? err : new Error(String(err));
    }
    lastEvent = event;
  }
  if (lastDecoding instanceof Error) throw lastDecoding;
  return lastDecoding!;
}

/**
 * Applies one event in its current shape (upcast and validated), naming the projection, event and
 * position when it is invalid or evolve cannot apply it.
 */
export function evolveOrExplain<Doc extends object>(
  projection: Projection<Doc>,
  doc: Doc | null,
  event: RecordedEvent,
): Doc | null {
  try {
    return projection.evolve(doc, decodeOnce(event));
  } catch (err) {
    throw new Error(`projection ${projection.name} cannot apply ${event.type} at ${event.position}: ${String(err)}`, {
      cause: err,
    });
  }
}
