import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, RefusalNotice, useOutcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { SecretOnce, SecretWording } from '../ui/secret-once';
import { EventType, WebhookFields } from './webhook-form';
import { WebhookRow } from './webhook-row';

/** What a new webhook's form offers ticked: the event most receivers are for. */
const FIRST_EVENTS: EventType[] = ['credential.approved'];

const SECRET_WORDING: SecretWording = {
  title: 'Signing secret',
  warning:
    'This is the only time the secret is shown. Store it where your receiver verifies the webhook-signature header.',
  label: 'Secret',
  testId: 'webhook-secret',
  copy: 'Copy the secret',
  stored: 'I have stored the secret somewhere safe',
  done: 'Done: hide the secret',
  leave: "The webhook's signing secret is shown only this once. Leave without storing it?",
};

/** Webhooks: register one (its secret shown once), list them, each one's deliveries, test send, edit and removal. */
export function Webhooks() {
  const [hooks, reload] = useLoad(() => call(() => api.GET('/webhooks')), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(FIRST_EVENTS);
  // The secret belongs to the webhook it signs for: it goes when that webhook goes.
  const [secret, setSecret] = useState({ value: '', serial: 0, id: '', url: '' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [removal, setRemoval] = useState<Refusal | null>(null);
  const [removed, report, clearRemoved] = useOutcome();

  const register = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/webhooks', { params: { header: await csrf() }, body: { url, events } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setSecret((s) => ({ value: answer.data.secret, serial: s.serial + 1, id: answer.data.id, url: answer.data.url }));
    // Registered: the form starts over, or a second click would register the same URL twice,
    // and the next webhook would inherit this one's events.
    setUrl('');
    setEvents(FIRST_EVENTS);
    clearRemoved();
    reload();
  };
  const forget = () => setSecret((s) => ({ ...s, value: '', id: '', url: '' }));
  const remove = async (hook: Schemas['Webhook']) => {
    const answer = await call(async () =>
      api.DELETE('/webhooks/{id}', { params: { header: await csrf(), path: { id: hook.id } } }),
    );
    if (!answer.ok) return setRemoval(answer.refusal);
    setRemoval(null);
    if (secret.id === hook.id) forget();
    report(`Removed the webhook ${hook.url}.`);
    reload();
  };

  return (
    <>
      <ScreenHeading>Webhooks</ScreenHeading>
      <section aria-labelledby="new-webhook" class="card">
        <h2 id="new-webhook">Register a webhook</h2>
        <form onSubmit={register}>
          <WebhookFields
            form="new"
            url={url}
            events={events}
            onUrl={setUrl}
            onEvents={setEvents}
            refusal={refusal}
            again="register again"
          />
          <button type="submit" class="primary">
            Register
          </button>
        </form>
        {secret.value && (
          <SecretOnce key={secret.serial} secret={secret.value} wording={SECRET_WORDING} onStored={forget}>
            <dt>Webhook</dt>
            <dd>
              <code>{secret.url}</code>
            </dd>
          </SecretOnce>
        )}
      </section>
      <section aria-labelledby="webhooks-title" class="card">
        <h2 id="webhooks-title">Registered</h2>
        <Done focusKey={removed.serial}>{removed.message}</Done>
        <RefusalNotice refusal={removal} />
        {hooks.state === 'loading' && <Loading what="the webhooks" />}
        {hooks.state === 'failed' && <LoadFailed refusal={hooks.refusal} onRetry={reload} />}
        {hooks.state === 'ready' && hooks.data.list.length === 0 && <Empty>No webhook yet.</Empty>}
        {hooks.state === 'ready' &&
          hooks.data.list.map((hook) => (
            <WebhookRow key={hook.id} hook={hook} onRemove={(h) => void remove(h)} onChanged={reload} />
          ))}
      </section>
    </>
  );
}
