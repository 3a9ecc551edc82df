import type { Schemas } from '../api/client';
import { when } from '../ui/load';

type AuditEvent = Schemas['AuditEvent'];

/** Who did it: the administrator, the member, or the system, as the event recorded it. */
export function actorOf(actor: AuditEvent['actor']): string {
  if (actor.kind === 'system') return 'the system';
  if (actor.kind === 'cli') return `the command line (${actor.id ?? 'unknown user'})`;
  return `${actor.kind === 'admin' ? 'administrator' : 'member'} ${actor.username ?? `#${actor.id}`}`;
}

/**
 * A member's credential history, oldest first: who, what, when, why. With `onStateAfter`, each
 * event offers the state right after it, which a time typed to the second cannot always name.
 */
export function Timeline({ events, onStateAfter }: { events: AuditEvent[]; onStateAfter?: (event: AuditEvent) => void }) {
  if (events.length === 0) return <p class="empty">No credential event for this member.</p>;
  return (
    <ol class="timeline">
      {events.map((event) => (
        <li key={event.position}>
          <time dateTime={event.time}>{when(event.time)}</time>
          <strong>{event.summary}</strong>
          <span>by {actorOf(event.actor)}</span>
          {event.reason && <q>{event.reason}</q>}
          {event.invalid && <em>stored event does not fit its schema: {event.invalid}</em>}
          {onStateAfter && (
            <button type="button" class="small" onClick={() => onStateAfter(event)} aria-label={`State after this: ${event.summary}, ${when(event.time)}`}>
              State after this
            </button>
          )}
        </li>
      ))}
    </ol>
  );
}
