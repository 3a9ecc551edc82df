import { useState } from 'preact/hooks';
import type { Answer, Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { LoadedList } from '../ui/loaded-list';
import { TableHead } from '../ui/table';

type Delivery = Schemas['WebhookDelivery'];
type Exchange = NonNullable<Delivery['last_exchange']>;

/** Where a webhook's deliveries are read: the administrators' webhooks' endpoints or the developer's own. */
export interface DeliveryCalls {
  deliveries: (id: string) => Promise<Answer<{ list: Delivery[] }>>;
  /**
   * Sends a delivery again. Where it is offered (the administrators' webhooks), each delivery also
   * shows its next attempt and, on demand, its last request and answer; without it, what happened.
   */
  retry?: (id: string, deliveryId: string) => Promise<unknown>;
}

const COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt', 'Delivered', ''];
const PLAIN_COLUMNS = ['Event', 'Status', 'Attempts', 'Last answer', 'Delivered'];

interface DeliveriesProps {
  id: string;
  /** Read again when it changes. */
  round: number;
  calls: DeliveryCalls;
}

/** A webhook's deliveries, newest first; where a retry is offered, each with it and, expanded, its last request and answer. */
export function Deliveries({ id, round, calls }: DeliveriesProps) {
  const [list, reload] = useLoad(() => calls.deliveries(id), [id, round]);
  const [open, setOpen] = useState<string | null>(null);
  const { retry } = calls;
  const again =
    retry &&
    (async (deliveryId: string) => {
      await retry(id, deliveryId);
      reload();
    });
  return (
    <LoadedList loaded={list} onRetry={reload} what="the deliveries" empty="No delivery yet.">
      {(deliveries) => (
        <table class="deliveries">
          <TableHead columns={again ? COLUMNS : PLAIN_COLUMNS} />
          <tbody>
            {deliveries.map((d) =>
              again ? (
                <DeliveryRows key={d.id} delivery={d} open={open === d.id} onOpen={setOpen} onRetry={again} />
              ) : (
                <tr key={d.id}>
                  <DeliveryCells delivery={d} />
                  <td data-label="Delivered">{when(d.delivered_at)}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </LoadedList>
  );
}

interface DeliveryRowsProps {
  delivery: Delivery;
  open: boolean;
  onOpen: (id: string | null) => void;
  onRetry: (deliveryId: string) => void;
}

/** What every listing of a delivery shows first. */
function DeliveryCells({ delivery: d }: { delivery: Delivery }) {
  return (
    <>
      <td data-label="Event">{d.event_type}</td>
      <td data-label="Status">
        <span class={`status ${d.status}`}>{d.status}</span>
      </td>
      <td data-label="Attempts">{d.attempts}</td>
      <td data-label="Last answer">{d.last_status_code ?? '—'}</td>
    </>
  );
}

/** One delivery; opened, its last request and answer in the row under it. */
function DeliveryRows({ delivery: d, open, onOpen, onRetry }: DeliveryRowsProps) {
  return (
    <>
      <tr>
        <DeliveryCells delivery={d} />
        <td data-label="Next attempt">{when(d.next_attempt_at)}</td>
        <td data-label="Delivered">{when(d.delivered_at)}</td>
        <td data-label="Actions" class="decision">
          {d.last_exchange && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={`exchange-${d.id}`}
              aria-label={`Request and answer of ${d.event_type} ${d.id}`}
              onClick={() => onOpen(open ? null : d.id)}
            >
              Details
            </button>
          )}{' '}
          <button type="button" onClick={() => onRetry(d.id)} aria-label={`Retry ${d.event_type}`}>
            Retry
          </button>
        </td>
      </tr>
      {open && d.last_exchange && (
        <tr class="exchange-row">
          <td colSpan={COLUMNS.length} id={`exchange-${d.id}`}>
            <ExchangeView exchange={d.last_exchange} />
          </td>
        </tr>
      )}
    </>
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
