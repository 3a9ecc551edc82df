import { useEffect, useState } from 'preact/hooks';
import { useQueryState } from '../ui/query-state';
import { Pager, QueueSearch } from './queue-controls';

/** A page of a queue: the service's own paging and count, 50 rows a screen. */
export const PAGE_SIZE = 50;

/**
 * A review queue's filter, search and page, kept in the address (back, reload and a shared link
 * keep them), and the rows selected on the page, cleared when any of them changes.
 */
export function useQueueAddress<F extends string>(filterOf: (named: string | null) => F | '') {
  const { params, cursors, update } = useQueryState();
  const status = filterOf(params.get('status'));
  const q = params.get('q') ?? '';
  const after = params.get('after') ?? undefined;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  useEffect(() => setSelected(new Set()), [status, q, after]);
  const toggle = (key: string) =>
    setSelected((was) => new Set(was.has(key) ? [...was].filter((k) => k !== key) : [...was, key]));
  const onStatus = (next: F | '') => update({ status: next || 'all', after: undefined });
  const search = <QueueSearch value={q} onSearch={(text) => update({ q: text, after: undefined })} />;
  return {
    status,
    q,
    after,
    /** Changes whenever the list shown is another one: the last decision's outcome belongs to the list before. */
    listKey: `${status} ${q} ${after ?? ''}`,
    selected,
    toggle,
    /** Selects exactly these rows (none: clears the selection). */
    select: (keys: string[]) => setSelected(new Set(keys)),
    /** The queue's filter and search, as `Queue` takes them. */
    controls: { status, onStatus, search },
    /** The pager under a page of `shown` rows; `total` null when the service does not count the filter. */
    pager: (shown: number, total: number | null, next: string | null) => (
      <Pager
        shown={shown}
        total={total}
        before={cursors.length}
        pageSize={PAGE_SIZE}
        hasNext={next !== null}
        onPrevious={() => update({ after: cursors.at(-1) || undefined }, cursors.slice(0, -1))}
        onNext={() => update({ after: next ?? undefined }, [...cursors, after ?? ''])}
      />
    ),
  };
}

/** The counts beside each status, with "all" the sum of them. */
export function withAll<S extends string>(counts: Record<S, number> | undefined): Record<S | '', number> | undefined {
  if (!counts) return undefined;
  return { ...counts, '': Object.values<number>(counts).reduce((sum, n) => sum + n, 0) } as Record<S | '', number>;
}
