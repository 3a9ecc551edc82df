import { decodeEvent } from '../domain/events';
import { CollectionSpec, RecordedEvent } from '../../stores/ports';

/**
 * A read model: pure functions from events to one collection of documents. The runner does the
 * I/O; a projection never sees a store.
 */
export interface Projection<Doc extends object = Record<string, unknown>> {
  name: string;
  /** Raised whenever evolve changes meaning, so that stored read models get rebuilt. */
  version: number;
  collection: CollectionSpec;
  /** The documents an event changes; none when the event does not concern this read model. */
  documentIds(event: RecordedEvent): string[];
  /** The document after the event; null deletes it. */
  evolve(doc: Doc | null, event: RecordedEvent): Doc | null;
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
    return projection.evolve(doc, decodeEvent(event));
  } catch (err) {
    throw new Error(`projection ${projection.name} cannot apply ${event.type} at ${event.position}: ${String(err)}`, { cause: err });
  }
}
