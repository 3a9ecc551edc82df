import type { Schemas } from '../api/client';
import { when } from '../ui/load';

type AuditEvent = Schemas['AuditEvent'];

/** Who did it: the administrator, the member, or the system, as the event recorded it. */
export function actorOf(actor: AuditEvent['actor']): string {
  if (actor.kind === 'system') return 'the system';
  if (actor.kind === 'cli') return `the command line (${actor.id ?? 'unknown user'})`;
  return `${actor.kind === 'admin' ? 'administrator' : 'member'} ${actor.username ?? `#${actor.id}`}`;
}

/** What happened, in words: the event type split into words, with the scope it names. */
export function whatOf(event: AuditEvent): string {
  const words = event.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const scope = typeof event.data.scope === 'string' ? event.data.scope : Array.isArray(event.data.scopes) ? event.data.scopes.join(', ') : '';
  return scope ? `${words}: ${scope}` : words;
}

/** A member's credential history, oldest first: who, what, when, why. */
export function Timeline({ events }: { events: AuditEvent[] }) {
  if (events.length === 0) return <p class="empty">No credential event for this member.</p>;
  return (
    <ol class="timeline">
      {events.map((event) => (
        <li key={event.position}>
          <time dateTime={event.time}>{when(event.time)}</time>
          <strong>{whatOf(event)}</strong>
          <span>by {actorOf(event.actor)}</span>
          {event.reason && <q>{event.reason}</q>}
          {event.invalid && <em>stored event does not fit its schema: {event.invalid}</em>}
        </li>
      ))}
    </ol>
  );
}
