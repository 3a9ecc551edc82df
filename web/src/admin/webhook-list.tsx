import { useState } from 'preact/hooks';
import type { Refusal } from '../api/client';
import type { Loaded } from '../ui/load';
import { LoadedList } from '../ui/loaded-list';
import { Done, RefusalNotice, type Outcome } from '../ui/notice';
import { WebhookRow, type Hook, type RowWording, type WebhookCalls } from './webhook-row';

interface ListProps {
  /** The card's heading: its id and words. */
  id: string;
  title: string;
  /** What "Loading …" says: "the webhooks". */
  what: string;
  hooks: Loaded<{ list: Hook[] }>;
  reload: () => void;
  calls: WebhookCalls;
  wording: RowWording;
  /** What the last removal did, said at the top of the list. */
  removed: Outcome;
  report: (message: string) => void;
  onRemoved?: (hook: Hook) => void;
}

/** The webhooks registered, each a row, and what removing one did or why it was refused. */
export function WebhookList({ id, title, what, hooks, reload, calls, wording, removed, report, onRemoved }: ListProps) {
  const [removal, setRemoval] = useState<Refusal | null>(null);
  const remove = async (hook: Hook) => {
    const answer = await calls.remove(hook.id);
    if (!answer.ok) return setRemoval(answer.refusal);
    setRemoval(null);
    onRemoved?.(hook);
    report(`Removed the webhook ${hook.url}.`);
    reload();
  };
  return (
    <section aria-labelledby={id} class="card">
      <h2 id={id}>{title}</h2>
      <Done focusKey={removed.serial}>{removed.message}</Done>
      <RefusalNotice refusal={removal} />
      <LoadedList loaded={hooks} onRetry={reload} what={what} empty="No webhook yet.">
        {(list) =>
          list.map((hook) => (
            <WebhookRow
              key={hook.id}
              hook={hook}
              calls={calls}
              wording={wording}
              onRemove={(h) => void remove(h)}
              onChanged={reload}
            />
          ))
        }
      </LoadedList>
    </section>
  );
}
