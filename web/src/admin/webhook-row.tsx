import { useState } from 'preact/hooks';
import type { Answer, Refusal, Schemas } from '../api/client';
import { ConfirmAction } from '../ui/confirm-action';
import { Done, RefusalNotice, useOutcome } from '../ui/notice';
import type { SecretWording } from '../ui/secret-once';
import { Deliveries, type DeliveryCalls } from './webhook-deliveries';
import { EventType, useWebhookDraft, WebhookFields } from './webhook-form';
import { useShownSecret, WebhookSecret } from './webhook-secret';

/** A webhook as a row shows it: the administrators' or a developer's own. */
export interface Hook {
  id: string;
  url: string;
  events: readonly string[];
}

/** What a row asks of the service: the administrators' webhooks' endpoints or the developer's own. */
export interface WebhookCalls extends DeliveryCalls {
  test: (id: string) => Promise<Answer<Schemas['WebhookDelivery']>>;
  rotate: (id: string) => Promise<Answer<{ secret: string }>>;
  /** Asked by the list, once the row's removal is confirmed. */
  remove: (id: string) => Promise<Answer<unknown>>;
  /** Its URL and events changed together; without it, a webhook is not edited. */
  update?: (id: string, body: { url: string; events: EventType[] }) => Promise<Answer<Schemas['Webhook']>>;
}

/** What a row says that differs between the administrators' webhooks and a developer's own. */
export interface RowWording {
  /** Who answered a test: "the receiver", "your receiver". */
  receiver: string;
  /** What rotating the secret does to the receiver, asked before it is done. */
  rotateQuestion: (url: string) => string;
  removeQuestion: (url: string) => string;
  /** The new secret, shown once under the row. */
  rotated: SecretWording;
}

interface RowProps {
  hook: Hook;
  calls: WebhookCalls;
  wording: RowWording;
  onRemove: (hook: Hook) => void;
  /** The list is read again: the URL or the events changed. */
  onChanged?: () => void;
}

/** One webhook: its URL and events (edited in place where they may be); a test send; its secret rotated; its deliveries; its removal. */
export function WebhookRow({ hook, calls, wording, onRemove, onChanged }: RowProps) {
  const [showing, setShowing] = useState(false);
  const [round, setRound] = useState(0);
  const [editing, setEditing] = useState(false);
  const [outcome, report, clear] = useOutcome();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [undelivered, setUndelivered] = useState(false);
  const secret = useShownSecret();

  const refused = (refusal: Refusal) => {
    clear();
    setRefusal(refusal);
  };
  const test = async () => {
    const answer = await calls.test(hook.id);
    if (!answer.ok) return refused(answer.refusal);
    setRefusal(null);
    setUndelivered(answer.data.status !== 'delivered');
    report(
      answer.data.status === 'delivered'
        ? `Test sent: ${wording.receiver} answered ${answer.data.last_status_code}.`
        : `Test not delivered: ${answer.message.replace(/^not delivered: /, '')}.`,
    );
    // The ping is the newest delivery: shown at once.
    setShowing(true);
    setRound((n) => n + 1);
  };
  const rotate = async () => {
    const answer = await calls.rotate(hook.id);
    if (!answer.ok) return refused(answer.refusal);
    setRefusal(null);
    secret.show({ ...hook, secret: answer.data.secret });
  };
  const edited = (message: string | null) => {
    setEditing(false);
    if (!message) return;
    setUndelivered(false);
    report(message);
    onChanged?.();
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
        {calls.update && (
          <button
            type="button"
            onClick={() => setEditing(!editing)}
            aria-expanded={editing}
            aria-label={`Edit ${hook.url}`}
          >
            Edit
          </button>
        )}
        <ConfirmAction
          label="Rotate secret"
          name={`Rotate the secret of ${hook.url}`}
          title="Rotate the webhook's secret?"
          question={wording.rotateQuestion(hook.url)}
          onConfirm={() => void rotate()}
        />
        <ConfirmAction
          label="Remove"
          name={`Remove ${hook.url}`}
          title="Remove the webhook?"
          question={wording.removeQuestion(hook.url)}
          onConfirm={() => onRemove(hook)}
        />
      </div>
      <Done focusKey={outcome.serial} warning={undelivered}>
        {outcome.message}
      </Done>
      <RefusalNotice refusal={refusal} />
      <WebhookSecret secret={secret} wording={wording.rotated} />
      {editing && calls.update && <EditWebhook hook={hook} update={calls.update} onDone={edited} />}
      <div id={deliveriesId}>{showing && <Deliveries id={hook.id} round={round} calls={calls} />}</div>
    </div>
  );
}

interface EditProps {
  hook: Hook;
  update: NonNullable<WebhookCalls['update']>;
  onDone: (message: string | null) => void;
}

/** The URL and the events of a webhook, changed together (the same checks as at registration). */
function EditWebhook({ hook, update, onDone }: EditProps) {
  const draft = useWebhookDraft({ url: hook.url, events: hook.events as EventType[] });
  const save = async (event: Event) => {
    event.preventDefault();
    const answer = await update(hook.id, draft.body);
    if (!answer.ok) return draft.setRefusal(answer.refusal);
    onDone(`Saved: ${answer.data.url} now hears of ${answer.data.events.join(', ')}.`);
  };
  return (
    <form class="edit-webhook" onSubmit={save} aria-label={`Edit ${hook.url}`}>
      <WebhookFields form={hook.id} {...draft.fields} again="save again" />
      <button type="submit" class="primary">
        Save
      </button>{' '}
      <button type="button" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
