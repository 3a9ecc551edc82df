import { useState } from 'preact/hooks';
import { webhookEventsValues } from '../../generated/contract';
import type { Refusal, Schemas } from '../api/client';
import { Field } from '../ui/field';
import { RefusalNotice } from '../ui/notice';

export type EventType = Schemas['Webhook']['events'][number];

const atEvents = (path: string) => path === 'events' || path.startsWith('events.');

/** What the box under the form still says: the issues no field shows, or that the marked ones need a change. */
function summaryOf(refusal: Refusal | null, again: string): Refusal | null {
  if (!refusal || refusal.issues.length === 0) return refusal;
  const elsewhere = refusal.issues.filter((i) => i.path !== 'url' && !atEvents(i.path));
  return {
    ...refusal,
    message: elsewhere.length
      ? elsewhere.map((i) => i.message).join('; ')
      : `Correct what is marked above, then ${again}.`,
  };
}

interface WebhookFieldsProps {
  /** Tells this form's inputs from another's on the screen: "new", or the webhook's id. */
  form: string;
  url: string;
  events: EventType[];
  onUrl: (url: string) => void;
  onEvents: (events: EventType[]) => void;
  refusal: Refusal | null;
  /** What the summary asks to do once the marks are corrected: "register again". */
  again: string;
  /** The event types offered: the administrators' webhooks' by default. */
  types?: readonly EventType[];
}

/** A webhook's URL and the events it hears of (those the contract lists), each with its refusal in place. */
export function WebhookFields({
  form,
  url,
  events,
  onUrl,
  onEvents,
  refusal,
  again,
  types = webhookEventsValues,
}: WebhookFieldsProps) {
  const eventsIssue = refusal?.issues.find((i) => atEvents(i.path));
  const issueId = `webhook-events-issue-${form}`;
  const toggle = (type: EventType) =>
    onEvents(events.includes(type) ? events.filter((e) => e !== type) : [...events, type]);
  return (
    <>
      <Field
        name="url"
        id={`field-url-${form}`}
        label="URL"
        type="url"
        value={url}
        onInput={onUrl}
        optional={false}
        refusal={refusal}
      />
      <fieldset class="group" aria-describedby={eventsIssue ? issueId : undefined}>
        <legend>Events</legend>
        {eventsIssue && (
          <small id={issueId} class="issue">
            {eventsIssue.message}
          </small>
        )}
        {types.map((type) => (
          <label key={type} class="check">
            <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
          </label>
        ))}
      </fieldset>
      <RefusalNotice refusal={summaryOf(refusal, again)} />
    </>
  );
}

/**
 * A webhook form's URL and events, and the refusal marking them: `fields` go to WebhookFields as
 * they are, `body` to the service; `reset` starts the form over from `start`.
 */
export function useWebhookDraft(start: { url: string; events: EventType[] }) {
  const [url, onUrl] = useState(start.url);
  const [events, onEvents] = useState<EventType[]>(start.events);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  return {
    body: { url, events },
    fields: { url, events, onUrl, onEvents, refusal },
    setRefusal,
    reset: () => {
      onUrl(start.url);
      onEvents(start.events);
    },
  };
}
