import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { isStale, type Answer, type Refusal } from '../api/client';
import { when, type Loaded } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, RefusalNotice, useOutcome, type Outcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { TableHead } from '../ui/table';

type Decided = { ok: true; message: string } | { ok: false; refusal: Refusal };

/**
 * A decision's outcome in a queue: its message, or its refusal. `decided` answers a refusal of
 * what was typed to the reason box, which shows it in place; a refusal for the row's state shows
 * above the queue, since reading the queue again may take the row and its box away. The outcome
 * belongs to the list it was decided in: another status filter clears it.
 */
export function useDecisions(reload: () => void, filter: string) {
  const [done, report, clear] = useOutcome();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  useEffect(() => {
    clear();
    setRefusal(null);
  }, [filter]);
  /** `typed`: the reason sent, kept in the notice when the matter was decided meanwhile and its box goes. */
  const decided = (answer: Decided, typed?: string): Refusal | null => {
    // The outcome above was of an earlier decision.
    clear();
    setRefusal(null);
    if (answer.ok) {
      report(answer.message);
      reload();
      return null;
    }
    if (!isStale(answer.refusal)) return answer.refusal;
    // Another administrator decided it meanwhile: the queue is read again, so the row shows what is true now.
    setRefusal({ ...answer.refusal, message: staleWords(answer.refusal, typed) });
    reload();
    return null;
  };
  /** For a decision without a reason box: its refusal shows above the queue. */
  const decide = async (answer: Promise<Decided>) => {
    const refused = decided(await answer);
    if (refused) setRefusal(refused);
  };
  /** A decision with a reason box, its answer in the console's words (`saying`). */
  const decidedSaying = async <T,>(sent: Promise<Answer<T>>, words: (data: T) => string, reason: string) =>
    decided(saying(await sent, words), reason);
  return { done, refusal, decided, decide, decidedSaying };
}

/**
 * A decision that came too late, in the reviewer's words: who decided meanwhile and when (the
 * service says it), that the list now shows it, and what the reviewer typed, kept to copy.
 */
export function staleWords(refusal: Refusal, typed?: string): string {
  const who = refusal.decided
    ? `${refusal.decided.by ?? 'An administrator no longer known'} decided it on ${when(refusal.decided.at)}`
    : refusal.message;
  const kept = typed ? ` What you typed is kept here: “${typed}”` : '';
  return `Too late: ${who}. The list now shows where it stands.${kept}`;
}

/** A decision's answer in the console's own words, not the service's: who, what was done, and what follows. */
export function saying<T>(answer: Answer<T>, words: (data: T) => string): Answer<T> {
  return answer.ok ? { ...answer, message: words(answer.data) } : answer;
}

interface QueueProps<S extends string> {
  title: string;
  id: string;
  noun: string;
  statuses: readonly S[];
  /** An option's words when they are not its value: a filter that is not a status ("extension requested"). */
  labels?: Partial<Record<S, string>>;
  /** What the empty list says when "No pending application." would not fit the filter. */
  empty?: string;
  status: S | '';
  onStatus: (status: S | '') => void;
  /** How many each status holds, shown beside it where known. */
  counts?: Partial<Record<S | '', number>>;
  /** Beside the filter: a search. */
  search?: ComponentChildren;
  /** Above the list: decisions on the selected rows. */
  selection?: ComponentChildren;
  /** Below the list: its pages. */
  pages?: ComponentChildren;
  list: Loaded<{ list: unknown[] }>;
  /** Loads the list again after it failed. */
  onRetry: () => void;
  columns: string[];
  done: Outcome;
  refusal: Refusal | null;
  /** One line a row on a wide screen (the credential queue: many rows to go through). */
  compact?: boolean;
  /** The list's rows' body, for the reviewer's keys (useRowKeys). */
  bodyRef?: RefObject<HTMLTableSectionElement>;
  /** The rows, rendered by the caller once the list is ready and not empty. */
  children: () => ComponentChildren;
}

/**
 * A row's decision buttons: the cell stays a table cell (its row's height and borders), and the
 * buttons wrap inside it, so each one sits in the row it decides.
 */
export function DecisionCell({ children }: { children: ComponentChildren }) {
  return (
    <td data-label="Decision" class="decision">
      <div class="actions">{children}</div>
    </td>
  );
}

const counted = (words: string, count: number | undefined) => (count === undefined ? words : `${words} (${count})`);

/** A review queue: a status filter, the outcome of the last decision, and the list with its loading and empty states. */
export function Queue<S extends string>(props: QueueProps<S>) {
  const { list } = props;
  return (
    <>
      <ScreenHeading>{props.title}</ScreenHeading>
      <div class="field inline">
        <label for={props.id}>Status</label>
        <select
          id={props.id}
          value={props.status}
          onChange={(e) => props.onStatus((e.currentTarget as HTMLSelectElement).value as S | '')}
        >
          <option value="">{counted('all', props.counts?.[''])}</option>
          {props.statuses.map((s) => (
            <option key={s} value={s}>
              {counted(props.labels?.[s] ?? s, props.counts?.[s])}
            </option>
          ))}
        </select>
      </div>
      {props.search}
      <Done focusKey={props.done.serial}>{props.done.message}</Done>
      <RefusalNotice refusal={props.refusal} takeFocus />
      {list.state === 'loading' && <Loading what={`${props.noun}s`} />}
      {list.state === 'failed' && <LoadFailed refusal={list.refusal} onRetry={props.onRetry} />}
      {list.state === 'ready' && list.data.list.length === 0 && (
        <Empty>
          {props.empty ?? (
            <>
              No {props.status || ''} {props.noun}.
            </>
          )}
        </Empty>
      )}
      {list.state === 'ready' && list.data.list.length > 0 && (
        <>
          {props.selection}
          <table class={props.compact ? 'compact' : undefined}>
            <TableHead columns={props.columns} />
            <tbody ref={props.bodyRef}>{props.children()}</tbody>
          </table>
          {props.pages}
        </>
      )}
    </>
  );
}
