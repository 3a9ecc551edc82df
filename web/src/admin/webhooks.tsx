import { useState } from 'preact/hooks';
import { webhookEventsValues } from '../../generated/contract';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { ConfirmAction } from '../ui/confirm-action';
import { Field } from '../ui/field';
import { Done, Empty, Loading, LoadFailed, RefusalNotice, useOutcome } from '../ui/notice';
import { TableHead } from '../ui/table';
import { ScreenHeading } from '../ui/screen';

type EventType = Schemas['Webhook']['events'][number];

const atEvents = (path: string) => path === 'events' || path.startsWith('events.');

/** What the box under the form still says: the issues no field shows, or that the marked ones need a change. */
function summaryOf(refusal: Refusal | null): Refusal | null {
  if (!refusal || refusal.issues.length === 0) return refusal;
  const elsewhere = refusal.issues.filter((i) => i.path !== 'url' && !atEvents(i.path));
  return { ...refusal, message: elsewhere.length ? elsewhere.map((i) => i.message).join('; ') : 'Correct what is marked above, then register again.' };
}

/** Webhooks: register one (its secret shown once), list them, and each one's deliveries with a retry. */
/** What a new webhook's form offers ticked: the event most receivers are for. */
const FIRST_EVENTS: EventType[] = ['credential.approved'];

export function Webhooks() {
  const [hooks, reload] = useLoad(() => call(() => api.GET('/webhooks')), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(FIRST_EVENTS);
  // The secret belongs to the webhook it signs for: it goes when that webhook goes.
  const [secret, setSecret] = useState({ value: '', serial: 0, id: '', url: '' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [removal, setRemoval] = useState<Refusal | null>(null);
  const [removed, report, clearRemoved] = useOutcome();
  const [open, setOpen] = useState<string | null>(null);

  const register = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () => api.POST('/webhooks', { params: { header: await csrf() }, body: { url, events } }));
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
  const remove = async (hook: Schemas['Webhook']) => {
    const answer = await call(async () => api.DELETE('/webhooks/{id}', { params: { header: await csrf(), path: { id: hook.id } } }));
    if (!answer.ok) return setRemoval(answer.refusal);
    setRemoval(null);
    if (secret.id === hook.id) setSecret((s) => ({ ...s, value: '', id: '', url: '' }));
    report(`Removed the webhook ${hook.url}.`);
    reload();
  };
  const eventsIssue = refusal?.issues.find((i) => atEvents(i.path));
  const toggle = (type: EventType) => setEvents(events.includes(type) ? events.filter((e) => e !== type) : [...events, type]);

  return (
    <>
      <ScreenHeading>Webhooks</ScreenHeading>
      <section aria-labelledby="new-webhook" class="card">
        <h2 id="new-webhook">Register a webhook</h2>
        <form onSubmit={register}>
          <Field name="url" label="URL" type="url" value={url} onInput={setUrl} optional={false} refusal={refusal} />
          <fieldset aria-describedby={eventsIssue ? 'webhook-events-issue' : undefined}>
            <legend>Events</legend>
            {eventsIssue && (
              <small id="webhook-events-issue" class="issue">
                {eventsIssue.message}
              </small>
            )}
            {webhookEventsValues.map((type) => (
              <label key={type} class="check">
                <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
              </label>
            ))}
          </fieldset>
          <RefusalNotice refusal={summaryOf(refusal)} />
          <button type="submit" class="primary">Register</button>
        </form>
        {secret.value && (
          <Done focusKey={secret.serial}>
            Signing secret of <code>{secret.url}</code>, shown this once: <code data-testid="webhook-secret">{secret.value}</code>
          </Done>
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
            <div key={hook.id} class="webhook">
              <p>
                <code>{hook.url}</code> <small>{hook.events.join(', ')}</small>{' '}
                <button
                  type="button"
                  onClick={() => setOpen(open === hook.id ? null : hook.id)}
                  aria-expanded={open === hook.id}
                  aria-controls={`deliveries-${hook.id}`}
                  aria-label={`Deliveries of ${hook.url}`}
                >
                  Deliveries
                </button>{' '}
                <ConfirmAction
                  label="Remove"
                  name={`Remove ${hook.url}`}
                  question={`Remove the webhook ${hook.url}? Nothing more is sent to it, and its deliveries are no longer listed.`}
                  onConfirm={() => void remove(hook)}
                />
              </p>
              <div id={`deliveries-${hook.id}`}>{open === hook.id && <Deliveries id={hook.id} />}</div>
            </div>
          ))}
      </section>
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const [list, reload] = useLoad(() => call(() => api.GET('/webhooks/{id}/deliveries', { params: { path: { id } } })), [id]);
  const retry = async (delivery_id: string) => {
    await call(async () => api.POST('/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { header: await csrf(), path: { id, delivery_id } }, body: {} }));
    reload();
  };
  if (list.state === 'loading') return <Loading what="the deliveries" />;
  if (list.state === 'failed') return <LoadFailed refusal={list.refusal} onRetry={reload} />;
  if (list.data.list.length === 0) return <Empty>No delivery yet.</Empty>;
  return (
    <table>
      <TableHead columns={['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Delivered', '']} />
      <tbody>
        {list.data.list.map((d) => (
          <tr key={d.id}>
            <td data-label="Event">{d.event_type}</td>
            <td data-label="Status">
              <span class={`status ${d.status}`}>{d.status}</span>
            </td>
            <td data-label="Attempts">{d.attempts}</td>
            <td data-label="Last answer">{d.last_status_code ?? '—'}</td>
            <td data-label="Next attempt">{when(d.next_attempt_at)}</td>
            <td data-label="Delivered">{when(d.delivered_at)}</td>
            <td data-label="Retry" class="decision">
              <button type="button" onClick={() => retry(d.id)} aria-label={`Retry ${d.event_type}`}>
                Retry
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
