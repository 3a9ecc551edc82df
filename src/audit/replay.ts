import { CredentialDocument, credentialsProjection } from '../credential';
import { evolveOrExplain } from '../shared/projections/projection';
import { RecordedEvent } from '../stores/ports';
import { storedMetadata } from './event';

/**
 * The events of one stream that had happened by `instant`: the stream's prefix up to the first
 * event recorded later. A prefix, not a filter by time: clocks of two instances may disagree by a
 * little, and a replay that skipped an earlier event would not be a history that happened.
 */
export function eventsUntil(events: RecordedEvent[], instant: string): RecordedEvent[] {
  const limit = Date.parse(instant);
  // An event with no readable time stays in, after the events before it: NaN is later than nothing.
  const later = events.findIndex((event) => Date.parse(String(storedMetadata(event).time)) > limit);
  return later === -1 ? events : events.slice(0, later);
}

/**
 * A member's credential and scopes as the dashboard showed them after these events (null before
 * the first application), folded with the credentials read model's own evolve, so that a replay
 * and the live read model cannot tell two stories.
 */
export function replayCredential(events: RecordedEvent[]): CredentialDocument | null {
  return events.reduce<CredentialDocument | null>(
    (doc, event) => evolveOrExplain(credentialsProjection, doc, event),
    null,
  );
}
