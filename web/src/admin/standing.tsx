import type { JSX } from 'preact';
import type { Refusal } from '../api/client';
import { ConfirmAction } from '../ui/confirm-action';
import type { Loaded } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, type Outcome, RefusalNotice } from '../ui/notice';
import { TableHead } from '../ui/table';

/** Whether a role group or an administrator is enabled, as its badge says it. */
export function Standing({ enabled }: { enabled: boolean }) {
  return <span class={`status ${enabled ? 'active' : 'revoked'}`}>{enabled ? 'enabled' : 'disabled'}</span>;
}

/** Disable (asked first: it takes access away at once) or enable again; `name` names the row's thing. */
export function StandingAction({
  enabled,
  name,
  question,
  onTurn,
}: {
  enabled: boolean;
  name: string;
  question: string;
  onTurn: (enable: boolean) => void;
}) {
  if (enabled)
    return (
      <ConfirmAction
        label="Disable"
        name={`Disable ${name}`}
        title={`Disable ${name}?`}
        question={question}
        onConfirm={() => onTurn(false)}
      />
    );
  return (
    <button type="button" onClick={() => onTurn(true)} aria-label={`Enable ${name}`}>
      Enable
    </button>
  );
}

/**
 * The card listing role groups or administrators: what the last action did or why it was refused,
 * then the list's table once loaded (`rows`), or why it is not there.
 */
export function StandingTable<T extends { id: number }>(props: {
  id: string;
  title: string;
  what: string;
  empty: string;
  columns: string[];
  loaded: Loaded<{ list: T[] }>;
  onRetry: () => void;
  outcome: Outcome;
  refusal: Refusal | null;
  row: (item: T) => JSX.Element;
}) {
  const { loaded } = props;
  return (
    <section aria-labelledby={props.id} class="card">
      <h2 id={props.id}>{props.title}</h2>
      <Done focusKey={props.outcome.serial}>{props.outcome.message}</Done>
      <RefusalNotice refusal={props.refusal} takeFocus />
      {loaded.state === 'loading' && <Loading what={props.what} />}
      {loaded.state === 'failed' && <LoadFailed refusal={loaded.refusal} onRetry={props.onRetry} />}
      {loaded.state === 'ready' && loaded.data.list.length === 0 && <Empty>{props.empty}</Empty>}
      {loaded.state === 'ready' && loaded.data.list.length > 0 && (
        <table>
          <TableHead columns={props.columns} />
          <tbody>{loaded.data.list.map(props.row)}</tbody>
        </table>
      )}
    </section>
  );
}
