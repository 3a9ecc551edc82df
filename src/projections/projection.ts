import { CollectionSpec, RecordedEvent } from '../stores/ports';

/**
 * A read model: pure functions from events to one collection of documents. The runner does the
 * I/O; a projection never sees a store.
 */
export interface Projection<Doc extends object = Record<string, unknown>> {
  name: string;
  /** Raised whenever evolve changes meaning, so that stored read models get rebuilt. */
  version: number;
  collection: CollectionSpec;
  /** The document an event changes, or null when the event does not concern this read model. */
  documentId(event: RecordedEvent): string | null;
  /** The document after the event; null deletes it. */
  evolve(doc: Doc | null, event: RecordedEvent): Doc | null;
}
