import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, call, csrf, type Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Empty, Loading, LoadFailed } from '../ui/notice';
import { TableHead } from '../ui/table';

type Exchange = NonNullable<Schemas['WebhookDelivery']['last_exchange']>;

const COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Delivered', ''];

/** A webhook's deliveries, newest first, each with a retry and, expanded, its last request and answer. `round`: read again when it changes. */
export function Deliveries({ id, round }: { id: string; round: number }) {
  const [list, reload] = useLoad(
    () => call(() => api.GET('/webhooks/{id}/deliveries', { params: { path: { id } } })),
    [id, round],
  );
  const [open, setOpen] = useState<string | null>(null);
  const retry = async (delivery_id: string) => {
    await call(async () =>
      api.POST('/webhooks/{id}/deliveries/{delivery_id}/retry', {
        params: { header: await csrf(), path: { id, delivery_id } },
        body: {},
      }),
    );
    reload();
  };
  if (list.state === 'loading') return <Loading what="the deliveries" />;
  if (list.state === 'failed') return <LoadFailed refusal={list.refusal} onRetry={reload} />;
  if (list.data.list.length === 0) return <Empty>No delivery yet.</Empty>;
  return (
    <table class="deliveries">
      <TableHead columns={COLUMNS} />
      <tbody>
        {list.data.list.map((d) => (
          <Fragment key={d.id}>
            <tr>
              <td data-label="Event">{d.event_type}</td>
              <td data-label="Status">
                <span class={`status ${d.status}`}>{d.status}</span>
              </td>
              <td data-label="Attempts">{d.attempts}</td>
              <td data-label="Last answer">{d.last_status_code ?? '—'}</td>
              <td data-label="Next attempt">{when(d.next_attempt_at)}</td>
              <td data-label="Delivered">{when(d.delivered_at)}</td>
              <td data-label="Actions" class="decision">
                {d.last_exchange && (
                  <button
                    type="button"
                    aria-expanded={open === d.id}
                    aria-controls={`exchange-${d.id}`}
                    aria-label={`Request and answer of ${d.event_type} ${d.id}`}
                    onClick={() => setOpen(open === d.id ? null : d.id)}
                  >
                    Details
                  </button>
                )}{' '}
                <button type="button" onClick={() => retry(d.id)} aria-label={`Retry ${d.event_type}`}>
                  Retry
                </button>
              </td>
            </tr>
            {open === d.id && d.last_exchange && (
              <tr class="exchange-row">
                <td colSpan={COLUMNS.length} id={`exchange-${d.id}`}>
                  <ExchangeView exchange={d.last_exchange} />
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

/** The last attempt as sent (headers with the signature, never the secret; the body) and as answered. */
function ExchangeView({ exchange }: { exchange: Exchange }) {
  const headers = Object.entries(exchange.request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return (
    <div class="exchange">
      <section aria-label="Request">
        <h3>Request, sent {when(exchange.sent_at)}</h3>
        <pre>{headers}</pre>
        <pre>{pretty(exchange.request.body)}</pre>
      </section>
      <section aria-label="Answer">
        <h3>Answer after {exchange.duration_ms} ms</h3>
        {exchange.response ? (
          <>
            <p>
              Status <strong>{exchange.response.status}</strong>
            </p>
            {exchange.response.body ? <pre>{exchange.response.body}</pre> : <p>An empty body.</p>}
            <small class="hint">At most the first 1024 bytes of the body are kept.</small>
          </>
        ) : (
          <p>No answer: {exchange.error}</p>
        )}
      </section>
    </div>
  );
}

/** JSON laid out to read; anything else as it came. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
