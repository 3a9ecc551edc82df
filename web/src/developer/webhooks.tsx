import { developerWebhookEventsValues } from '../../generated/contract';
import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { EventType, WebhookFields } from '../admin/webhook-form';
import { ConfirmAction } from '../ui/confirm-action';
import { useLoad } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, RefusalNotice, useOutcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { SecretOnce, SecretWording } from '../ui/secret-once';
import { TableHead } from '../ui/table';

type Hook = Schemas['DeveloperWebhook'];

const LIMIT = 5;

const SECRET_WORDING: SecretWording = {
  title: 'Signing secret',
  warning:
    'This is the only time the secret is shown. Store it where your receiver verifies the webhook-signature header.',
  label: 'Secret',
  testId: 'developer-webhook-secret',
  copy: 'Copy the secret',
  stored: 'I have stored the secret somewhere safe',
  done: 'Done: hide the secret',
  leave: "The webhook's signing secret is shown only this once. Leave without storing it?",
};

/** The developer's own webhooks: register one (at most 5), test, rotate its secret, see its deliveries, remove it. */
export function DeveloperWebhooks() {
  const [hooks, reload] = useLoad(() => call(() => api.GET('/developer/webhooks')), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(['credential.approved']);
  const [secret, setSecret] = useState({ value: '', serial: 0, url: '' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [outcome, report] = useOutcome();

  const register = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/developer/webhooks', {
        params: { header: await csrf() },
        body: { url, events: events as Hook['events'] },
      }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setSecret((s) => ({ value: answer.data.secret, serial: s.serial + 1, url: answer.data.url }));
    setUrl('');
    setEvents(['credential.approved']);
    reload();
  };
  const shown = (value: string, hookUrl: string) => setSecret((s) => ({ value, serial: s.serial + 1, url: hookUrl }));
  const full = hooks.state === 'ready' && hooks.data.list.length >= LIMIT;

  return (
    <>
      <ScreenHeading>Webhooks</ScreenHeading>
      <p>
        Your server is told of your own credential's events as they happen: signed POSTs (Standard Webhooks) to a URL of
        yours. At most {LIMIT}.
      </p>
      <section aria-labelledby="new-developer-webhook" class="card">
        <h2 id="new-developer-webhook">Register a webhook</h2>
        {full ? (
          <p>You hold {LIMIT} webhooks, the most there may be: remove one to register another.</p>
        ) : (
          <form onSubmit={register} noValidate>
            <WebhookFields
              form="new"
              url={url}
              events={events}
              onUrl={setUrl}
              onEvents={setEvents}
              refusal={refusal}
              again="register again"
              types={developerWebhookEventsValues}
            />
            <button type="submit" class="primary">
              Register
            </button>
          </form>
        )}
        {secret.value && (
          <SecretOnce
            key={secret.serial}
            secret={secret.value}
            wording={SECRET_WORDING}
            onStored={() => setSecret((s) => ({ ...s, value: '' }))}
          >
            <dt>Webhook</dt>
            <dd>
              <code>{secret.url}</code>
            </dd>
          </SecretOnce>
        )}
      </section>
      <section aria-labelledby="developer-webhooks-title" class="card">
        <h2 id="developer-webhooks-title">Yours</h2>
        <Done focusKey={outcome.serial}>{outcome.message}</Done>
        {hooks.state === 'loading' && <Loading what="your webhooks" />}
        {hooks.state === 'failed' && <LoadFailed refusal={hooks.refusal} onRetry={reload} />}
        {hooks.state === 'ready' && hooks.data.list.length === 0 && <Empty>No webhook yet.</Empty>}
        {hooks.state === 'ready' &&
          hooks.data.list.map((hook) => (
            <HookRow
              key={hook.id}
              hook={hook}
              onSecret={(value) => shown(value, hook.url)}
              onRemoved={() => {
                report(`Removed the webhook ${hook.url}.`);
                reload();
              }}
            />
          ))}
      </section>
    </>
  );
}

interface HookRowProps {
  hook: Hook;
  onSecret: (secret: string) => void;
  onRemoved: () => void;
}

/** One of the developer's webhooks: its events, a test send, a new secret, its deliveries, its removal. */
function HookRow({ hook, onSecret, onRemoved }: HookRowProps) {
  const [round, setRound] = useState(0);
  const [showing, setShowing] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [outcome, report] = useOutcome();
  const path = { id: hook.id };

  const test = async () => {
    const answer = await call(async () =>
      api.POST('/developer/webhooks/{id}/test', { params: { header: await csrf(), path }, body: {} }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    report(
      answer.data.status === 'delivered'
        ? `Test sent: your receiver answered ${answer.data.last_status_code}.`
        : `Test not delivered: ${answer.message.replace(/^not delivered: /, '')}.`,
    );
    setShowing(true);
    setRound((n) => n + 1);
  };
  const rotate = async () => {
    const answer = await call(async () =>
      api.POST('/developer/webhooks/{id}/rotate-secret', { params: { header: await csrf(), path }, body: {} }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    onSecret(answer.data.secret);
  };
  const remove = async () => {
    const answer = await call(async () =>
      api.DELETE('/developer/webhooks/{id}', { params: { header: await csrf(), path } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    onRemoved();
  };

  return (
    <div class="webhook">
      <p>
        <code>{hook.url}</code> <small>{hook.events.join(', ')}</small>
      </p>
      <div class="actions">
        <button type="button" onClick={() => setShowing(!showing)} aria-expanded={showing}>
          Deliveries
        </button>
        <button type="button" onClick={() => void test()} aria-label={`Send a test to ${hook.url}`}>
          Send a test
        </button>
        <ConfirmAction
          label="New secret"
          name={`New secret for ${hook.url}`}
          title="Give the webhook a new secret?"
          question="The current secret stops signing at once: your receiver must verify with the new one, shown once."
          onConfirm={() => void rotate()}
        />
        <ConfirmAction
          label="Remove"
          name={`Remove ${hook.url}`}
          title="Remove the webhook?"
          question={`Remove the webhook ${hook.url}? Nothing more is sent to it.`}
          onConfirm={() => void remove()}
        />
      </div>
      <Done focusKey={outcome.serial}>{outcome.message}</Done>
      <RefusalNotice refusal={refusal} />
      {showing && <HookDeliveries id={hook.id} round={round} />}
    </div>
  );
}

const COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Delivered'];

/** A webhook's deliveries, newest first. */
function HookDeliveries({ id, round }: { id: string; round: number }) {
  const [list, reload] = useLoad(
    () => call(() => api.GET('/developer/webhooks/{id}/deliveries', { params: { path: { id } } })),
    [id, round],
  );
  if (list.state === 'loading') return <Loading what="the deliveries" />;
  if (list.state === 'failed') return <LoadFailed refusal={list.refusal} onRetry={reload} />;
  if (list.data.list.length === 0) return <Empty>No delivery yet.</Empty>;
  return (
    <table class="deliveries">
      <TableHead columns={COLUMNS} />
      <tbody>
        {list.data.list.map((d) => (
          <tr key={d.id}>
            <td data-label="Event">{d.event_type}</td>
            <td data-label="Status">
              <span class={`status ${d.status}`}>{d.status}</span>
            </td>
            <td data-label="Attempts">{d.attempts}</td>
            <td data-label="Last answer">{d.last_status_code ?? 'none'}</td>
            <td data-label="Delivered">{d.delivered_at ? new Date(d.delivered_at).toLocaleString() : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
