import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { ConfirmAction } from '../ui/confirm-action';
import { Done, RefusalNotice, useOutcome } from '../ui/notice';
import { SecretOnce, SecretWording } from '../ui/secret-once';
import { Deliveries } from './webhook-deliveries';
import { EventType, WebhookFields } from './webhook-form';

type Webhook = Schemas['Webhook'];

const ROTATED_WORDING: SecretWording = {
  title: 'New signing secret',
  warning:
    'This is the only time the new secret is shown, and the old one signs nothing more. Store it where the receiver verifies the webhook-signature header.',
  label: 'Secret',
  testId: 'rotated-webhook-secret',
  copy: 'Copy the secret',
  stored: 'I have stored the secret somewhere safe',
  done: 'Done: hide the secret',
  leave: "The webhook's new signing secret is shown only this once. Leave without storing it?",
};

interface RowProps {
  hook: Webhook;
  onRemove: (hook: Webhook) => void;
  /** The list is read again: the URL or the events changed. */
  onChanged: () => void;
}

/** One webhook: its URL and events, edited in place; a test send; its deliveries; its removal. */
export function WebhookRow({ hook, onRemove, onChanged }: RowProps) {
  const [showing, setShowing] = useState(false);
  const [round, setRound] = useState(0);
  const [editing, setEditing] = useState(false);
  const [outcome, report, clear] = useOutcome();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [undelivered, setUndelivered] = useState(false);

  const test = async () => {
    const answer = await call(async () =>
      api.POST('/webhooks/{id}/test', { params: { header: await csrf(), path: { id: hook.id } }, body: {} }),
    );
    if (!answer.ok) {
      clear();
      return setRefusal(answer.refusal);
    }
    setRefusal(null);
    setUndelivered(answer.data.status !== 'delivered');
    report(
      answer.data.status === 'delivered'
        ? `Test sent: the receiver answered ${answer.data.last_status_code}.`
        : `Test not delivered: ${answer.message.replace(/^not delivered: /, '')}.`,
    );
    // The ping is the newest delivery: shown at once.
    setShowing(true);
    setRound((n) => n + 1);
  };

  const [secret, setSecret] = useState({ value: '', serial: 0 });
  const rotate = async () => {
    const answer = await call(async () =>
      api.POST('/webhooks/{id}/rotate-secret', { params: { header: await csrf(), path: { id: hook.id } }, body: {} }),
    );
    if (!answer.ok) {
      clear();
      return setRefusal(answer.refusal);
    }
    setRefusal(null);
    setSecret((s) => ({ value: answer.data.secret, serial: s.serial + 1 }));
  };

  const deliveriesId = `deliveries-${hook.id}`;
  return (
    <div class="webhook">
      <p>
        <code>{hook.url}</code> <small>{hook.events.join(', ')}</small>
      </p>
      <div class="actions">
        <button
          type="button"
          onClick={() => setShowing(!showing)}
          aria-expanded={showing}
          aria-controls={deliveriesId}
          aria-label={`Deliveries of ${hook.url}`}
        >
          Deliveries
        </button>
        <button type="button" onClick={() => void test()} aria-label={`Send a test to ${hook.url}`}>
          Send a test
        </button>
        <button
          type="button"
          onClick={() => setEditing(!editing)}
          aria-expanded={editing}
          aria-label={`Edit ${hook.url}`}
        >
          Edit
        </button>
        <ConfirmAction
          label="Rotate secret"
          name={`Rotate the secret of ${hook.url}`}
          title="Give the webhook a new secret?"
          question={`The current secret of ${hook.url} stops signing at once: its receiver must verify with the new one, shown once.`}
          onConfirm={() => void rotate()}
        />
        <ConfirmAction
          label="Remove"
          name={`Remove ${hook.url}`}
          title="Remove the webhook?"
          question={`Remove the webhook ${hook.url}? Nothing more is sent to it, and its deliveries are no longer listed.`}
          onConfirm={() => onRemove(hook)}
        />
      </div>
      <Done focusKey={outcome.serial} warning={undelivered}>
        {outcome.message}
      </Done>
      <RefusalNotice refusal={refusal} />
      {secret.value && (
        <SecretOnce
          key={secret.serial}
          secret={secret.value}
          wording={ROTATED_WORDING}
          onStored={() => setSecret((s) => ({ ...s, value: '' }))}
        >
          <dt>Webhook</dt>
          <dd>
            <code>{hook.url}</code>
          </dd>
        </SecretOnce>
      )}
      {editing && (
        <EditWebhook
          hook={hook}
          onDone={(message) => {
            setEditing(false);
            if (message) {
              setUndelivered(false);
              report(message);
              onChanged();
            }
          }}
        />
      )}
      <div id={deliveriesId}>{showing && <Deliveries id={hook.id} round={round} />}</div>
    </div>
  );
}

/** The URL and the events of a webhook, changed together (the same checks as at registration). */
function EditWebhook({ hook, onDone }: { hook: Webhook; onDone: (message: string | null) => void }) {
  const [url, setUrl] = useState(hook.url);
  const [events, setEvents] = useState<EventType[]>(hook.events);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.PUT('/webhooks/{id}', { params: { header: await csrf(), path: { id: hook.id } }, body: { url, events } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    onDone(`Saved: ${answer.data.url} now hears of ${answer.data.events.join(', ')}.`);
  };
  return (
    <form class="edit-webhook" onSubmit={save} aria-label={`Edit ${hook.url}`}>
      <WebhookFields
        form={hook.id}
        url={url}
        events={events}
        onUrl={setUrl}
        onEvents={setEvents}
        refusal={refusal}
        again="save again"
      />
      <button type="submit" class="primary">
        Save
      </button>{' '}
      <button type="button" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
