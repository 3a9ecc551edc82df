import type { ComponentChildren } from 'preact';
import type { Answer, Refusal } from '../api/client';
import { BulkDecision } from './bulk-decision';
import type { Decided } from './bulk-send';
import { useRowKeys } from './queue-keys';
import { SelectionBar } from './queue-selection';

interface BulkReviewProps<R> {
  rows: R[];
  /** A row's key in the selection. */
  keyOf: (row: R) => string;
  /** What a row's checkbox selects, as a screen reader names it: "alice", "addons.read for alice". */
  nameOf: (row: R) => string;
  /** What a row is: "application", "scope request". */
  noun: string;
  /** How many rows the filter and search find, over every page; null when not counted. */
  total: number | null;
  selected: Set<string>;
  toggle: (key: string) => void;
  select: (keys: string[]) => void;
  /** The keys of every row the filter and search find. */
  loadAll: () => Promise<Answer<string[]>>;
  /** The approve control for what is selected, named after it ("3 selected applications"). */
  approve: (subject: string) => ComponentChildren;
  onReject: (reason: string) => Promise<Refusal | null>;
}

/**
 * A review queue's decisions in bulk (issue 46), one for every queue: select all on the page, then
 * all the filter finds, one decision for the selection, the reviewer's keys (j/k/x/a/r), and each
 * row's checkbox and place. The queue renders `selection` above its rows, `selectCell` first in
 * each, and spreads `rowProps` on each row.
 */
export function useBulkReview<R>(props: BulkReviewProps<R>) {
  const { rows, keyOf, nameOf, selected, toggle } = props;
  const { body, current } = useRowKeys(rows.length);
  return {
    selection: (
      <>
        <SelectionBar
          page={rows.map(keyOf)}
          selected={selected}
          total={props.total}
          noun={props.noun}
          select={props.select}
          loadAll={props.loadAll}
        />
        <BulkDecision count={selected.size} noun={props.noun} approve={props.approve} onReject={props.onReject} />
      </>
    ),
    bodyRef: body,
    /** The row the keys are on stands out, and takes focus when they move to it. */
    rowProps: (index: number) => ({ tabIndex: -1, class: index === current ? 'current' : undefined }),
    selectCell: (row: R) => (
      <td data-label="Select" class="select">
        <input
          type="checkbox"
          checked={selected.has(keyOf(row))}
          onChange={() => toggle(keyOf(row))}
          aria-label={`Select ${nameOf(row)}`}
        />
      </td>
    ),
  };
}

/** The answer to a decision on the selection: once decided, its rows leave the selection (as they leave the pending list). */
export const clearedOnDecision =
  (select: (keys: string[]) => void) =>
  (answer: Decided): Decided => {
    if (answer.ok) select([]);
    return answer;
  };
