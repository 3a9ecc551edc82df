import type { ComponentChildren } from 'preact';
import type { Answer } from '../api/client';
import type { SecretWording } from '../ui/secret-once';
import { EventType, useWebhookDraft, WebhookFields } from './webhook-form';
import { WebhookSecret, type ShownSecret } from './webhook-secret';

/** What a new webhook's form offers ticked: the event most receivers are for. */
const FIRST_EVENTS: EventType[] = ['credential.approved'];

interface RegisterProps {
  /** The card's heading id. */
  id: string;
  register: (body: {
    url: string;
    events: EventType[];
  }) => Promise<Answer<{ id: string; url: string; secret: string }>>;
  secret: ShownSecret;
  wording: SecretWording;
  /** The event types offered: the administrators' webhooks' by default. */
  types?: readonly EventType[];
  /** The form checks nothing itself: the service's refusal marks the fields. */
  noValidate?: boolean;
  /** Said instead of the form when no more may be registered. */
  full?: ComponentChildren;
  onRegistered: () => void;
}

/** "Register a webhook": its URL and events; registered, its signing secret shown once. */
export function RegisterWebhook({
  id,
  register,
  secret,
  wording,
  types,
  noValidate,
  full,
  onRegistered,
}: RegisterProps) {
  const draft = useWebhookDraft({ url: '', events: FIRST_EVENTS });

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await register(draft.body);
    if (!answer.ok) return draft.setRefusal(answer.refusal);
    draft.setRefusal(null);
    secret.show(answer.data);
    // Registered: the form starts over, or a second click would register the same URL twice,
    // and the next webhook would inherit this one's events.
    draft.reset();
    onRegistered();
  };

  return (
    <section aria-labelledby={id} class="card">
      <h2 id={id}>Register a webhook</h2>
      {full ?? (
        <form onSubmit={submit} noValidate={noValidate}>
          <WebhookFields form="new" {...draft.fields} again="register again" types={types} />
          <button type="submit" class="primary">
            Register
          </button>
        </form>
      )}
      <WebhookSecret secret={secret} wording={wording} />
    </section>
  );
}
