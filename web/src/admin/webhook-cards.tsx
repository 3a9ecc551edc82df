import type { Answer } from '../api/client';
import { useLoad } from '../ui/load';
import { useOutcome } from '../ui/notice';
import type { SecretWording } from '../ui/secret-once';
import type { EventType } from './webhook-form';
import { WebhookList } from './webhook-list';
import { RegisterWebhook } from './webhook-register';
import type { Hook, RowWording, WebhookCalls } from './webhook-row';
import { useShownSecret } from './webhook-secret';

/** Whose webhooks a screen holds (the administrators' or a developer's own): their endpoints and words. */
export interface WebhookOwner {
  list: () => Promise<Answer<{ list: Hook[] }>>;
  register: (body: {
    url: string;
    events: EventType[];
  }) => Promise<Answer<{ id: string; url: string; secret: string }>>;
  calls: WebhookCalls;
  /** The ids of the two cards' headings, the list's title and what "Loading …" says of it. */
  ids: { register: string; list: string };
  title: string;
  what: string;
  secret: SecretWording;
  row: RowWording;
  /** The event types offered: the administrators' webhooks' by default. */
  types?: readonly EventType[];
  /** How many webhooks there may be. */
  limit?: number;
  /** The form checks nothing itself: the service's refusal marks the fields. */
  noValidate?: boolean;
}

/** "Register a webhook" (its secret shown once) and the webhooks registered, each with its actions. */
export function WebhookCards({ owner }: { owner: WebhookOwner }) {
  const [hooks, reload] = useLoad(owner.list, []);
  const secret = useShownSecret();
  const [removed, report, clearRemoved] = useOutcome();
  const full = owner.limit !== undefined && hooks.state === 'ready' && hooks.data.list.length >= owner.limit;

  return (
    <>
      <RegisterWebhook
        id={owner.ids.register}
        register={owner.register}
        secret={secret}
        wording={owner.secret}
        types={owner.types}
        noValidate={owner.noValidate}
        full={
          full ? (
            <p>You hold {owner.limit} webhooks, the most there may be: remove one to register another.</p>
          ) : undefined
        }
        onRegistered={() => {
          clearRemoved();
          reload();
        }}
      />
      <WebhookList
        id={owner.ids.list}
        title={owner.title}
        what={owner.what}
        hooks={hooks}
        reload={reload}
        calls={owner.calls}
        wording={owner.row}
        removed={removed}
        report={report}
        // The secret belongs to the webhook it signs for: it goes when that webhook goes.
        onRemoved={(hook) => secret.forget(hook.id)}
      />
    </>
  );
}
