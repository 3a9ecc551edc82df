import type { Schemas } from '../api/client';
import { when } from '../ui/load';

type AuditEvent = Schemas['AuditEvent'];

/** The actors that are no account: what the event names them by. */
const NOT_AN_ACCOUNT: Partial<Record<NonNullable<AuditEvent['actor']>['kind'], (id: string) => string>> = {
  system: () => 'the system',
  cli: (id) => `the command line (${id || 'unknown user'})`,
  rule: (id) => `the approval rule ${id}`.trim(),
  scanner: (id) => `the secret scanner ${id}`.trim(),
  sso: (id) => `single sign-on (subject ${id || 'unknown'})`,
};

/** Who did it: the administrator, the member, or the system, as the event recorded it. */
export function actorOf(actor: AuditEvent['actor']): string {
  // A stored event not written by this service may name no one readably; it is marked invalid.
  if (actor === null) return 'no actor recorded';
  const named = NOT_AN_ACCOUNT[actor.kind];
  if (named) return named(actor.id === null ? '' : String(actor.id));
  return `${actor.kind === 'admin' ? 'administrator' : 'member'} ${actor.username ?? `#${actor.id}`}`;
}

/** An instant as the service writes it in a summary (toISOString, or with an offset). */
const INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/** A summary cut into its words and the instants in it, each instant one the browser can read. */
function partsOf(summary: string): { words: string; instant?: string }[] {
  const parts: { words: string; instant?: string }[] = [];
  let last = 0;
  for (const match of summary.matchAll(INSTANT)) {
    if (Number.isNaN(Date.parse(match[0]))) continue;
    parts.push({ words: summary.slice(last, match.index) }, { words: match[0], instant: match[0] });
    last = match.index + match[0].length;
  }
  parts.push({ words: summary.slice(last) });
  return parts;
}

/**
 * What the event did, with its instants in the local time the row's own time is shown in: the
 * service writes them in UTC ("stayed valid until 2026-11-25T18:25:20.437Z"), and an auditor
 * comparing the two would be an hour or more out. For names and text that cannot hold markup.
 */
export function summaryText(summary: string): string {
  return partsOf(summary)
    .map((p) => (p.instant ? when(p.instant) : p.words))
    .join('');
}

/** The summary as the timeline shows it: each instant local, its exact UTC value kept in the markup and in its tooltip. */
function Summary({ summary }: { summary: string }) {
  return (
    <strong>
      {partsOf(summary).map((p, i) =>
        p.instant ? (
          <time key={i} dateTime={p.instant} title={p.instant}>
            {when(p.instant)}
          </time>
        ) : (
          p.words
        ),
      )}
    </strong>
  );
}

/**
 * A member's history, oldest first: their account's events and their credential's, each with who
 * did it (the member, an administrator, the system), what, when and why. With `onStateAfter`, each
 * event offers the state right after it, which a time typed to the second cannot always name.
 * Events recorded at the same instant (one decision's, such as two scopes requested at once) are
 * asked for by that instant: only the last of them offers it, since no state came between them.
 */
export function Timeline({
  events,
  onStateAfter,
  unverified,
}: {
  events: AuditEvent[];
  onStateAfter?: (event: AuditEvent) => void;
  /** Why each event that did not verify against its digest or chain does not, by position. */
  unverified?: Map<string, string>;
}) {
  if (events.length === 0) return <p class="empty">No event about this member.</p>;
  return (
    <ol class="timeline">
      {events.map((event, i) => (
        <li key={event.position}>
          {/* An event without a readable time (marked invalid) shows a dash, and offers no state after it: there is no instant to ask. */}
          <time dateTime={event.time ?? undefined}>{when(event.time)}</time>
          <Summary summary={event.summary} />
          <span>by {actorOf(event.actor)}</span>
          {event.reason && <q>{event.reason}</q>}
          {event.invalid && <em>stored event does not fit its schema: {event.invalid}</em>}
          {unverified?.has(event.position) && (
            <em class="unverified">does not verify: {unverified.get(event.position)}</em>
          )}
          {onStateAfter && event.time !== null && events[i + 1]?.time !== event.time && (
            <button
              type="button"
              class="small"
              onClick={() => onStateAfter(event)}
              aria-label={`State after this: ${summaryText(event.summary)}, ${when(event.time)}`}
            >
              State after this
            </button>
          )}
        </li>
      ))}
    </ol>
  );
}
