import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, RefusalNotice } from '../ui/notice';
import { TableHead } from '../ui/table';

type EventType = Schemas['Webhook']['events'][number];
const EVENT_TYPES: EventType[] = [
  'credential.applied', 'credential.approved', 'credential.rejected', 'credential.claimed', 'credential.rotated', 'credential.revoked',
  'credential.expiring', 'credential.expired', 'scope.requested', 'scope.approved', 'scope.rejected', 'scope.revoked',
];

/** Webhooks: register one (its secret shown once), list them, and each one's deliveries with a retry. */
export function Webhooks() {
  const [hooks, reload] = useLoad(() => call(() => api.GET('/webhooks')), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(['credential.approved']);
  const [secret, setSecret] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  const register = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () => api.POST('/webhooks', { params: { header: await csrf() }, body: { url, events } }));
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setSecret(answer.data.secret);
    reload();
  };
  const remove = async (id: string) => {
    const answer = await call(async () => api.DELETE('/webhooks/{id}', { params: { header: await csrf(), path: { id } } }));
    if (!answer.ok) return setRefusal(answer.refusal);
    reload();
  };
  const toggle = (type: EventType) => setEvents(events.includes(type) ? events.filter((e) => e !== type) : [...events, type]);

  return (
    <>
      <h1>Webhooks</h1>
      <section aria-labelledby="new-webhook" class="card">
        <h2 id="new-webhook">Register a webhook</h2>
        <form onSubmit={register}>
          <div class="field">
            <label for="webhook-url">URL</label>
            <input id="webhook-url" type="url" value={url} onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)} />
          </div>
          <fieldset>
            <legend>Events</legend>
            {EVENT_TYPES.map((type) => (
              <label key={type} class="check">
                <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
              </label>
            ))}
          </fieldset>
          <RefusalNotice refusal={refusal} />
          <button type="submit" class="primary">Register</button>
        </form>
        {secret && (
          <Done>
            Signing secret, shown this once: <code data-testid="webhook-secret">{secret}</code>
          </Done>
        )}
      </section>
      <section aria-labelledby="webhooks-title" class="card">
        <h2 id="webhooks-title">Registered</h2>
        {hooks.state === 'loading' && <Loading what="the webhooks" />}
        {hooks.state === 'failed' && <LoadFailed refusal={hooks.refusal} onRetry={reload} />}
        {hooks.state === 'ready' && hooks.data.list.length === 0 && <Empty>No webhook yet.</Empty>}
        {hooks.state === 'ready' &&
          hooks.data.list.map((hook) => (
            <div key={hook.id} class="webhook">
              <p>
                <code>{hook.url}</code> <small>{hook.events.join(', ')}</small>{' '}
                <button type="button" onClick={() => setOpen(open === hook.id ? null : hook.id)}>
                  Deliveries
                </button>{' '}
                <button type="button" class="danger" onClick={() => remove(hook.id)} aria-label={`Remove ${hook.url}`}>
                  Remove
                </button>
              </p>
              {open === hook.id && <Deliveries id={hook.id} />}
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
            <td>{d.event_type}</td>
            <td>
              <span class={`status ${d.status}`}>{d.status}</span>
            </td>
            <td>{d.attempts}</td>
            <td>{d.last_status_code ?? '—'}</td>
            <td>{when(d.next_attempt_at)}</td>
            <td>{when(d.delivered_at)}</td>
            <td>
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
