import { useState } from 'preact/hooks';
import type { Answer } from '../api/client';

interface SelectionProps {
  /** The keys of the rows on this page. */
  page: string[];
  selected: Set<string>;
  /** How many rows the filter and search find, over every page; null when not counted. */
  total: number | null;
  noun: string;
  select: (keys: string[]) => void;
  /** The keys of every row the filter and search find. */
  loadAll: () => Promise<Answer<string[]>>;
}

/** Select every row of the page, then, where there are more pages, every row the filter finds. */
export function SelectionBar({ page, selected, total, noun, select, loadAll }: SelectionProps) {
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState('');
  const allOnPage = page.length > 0 && page.every((k) => selected.has(k));
  const more = total !== null && total > page.length;
  const everything = total !== null && selected.size >= total;
  const selectMatching = async () => {
    setLoading(true);
    const answer = await loadAll();
    setLoading(false);
    if (!answer.ok) return setFailed(answer.refusal.message);
    setFailed('');
    select(answer.data);
  };
  return (
    <div class="selection-bar">
      <label class="check">
        <input
          type="checkbox"
          checked={allOnPage}
          onChange={() => select(allOnPage ? [] : page)}
          aria-keyshortcuts="x"
        />{' '}
        Select all {page.length} on this page
      </label>
      {allOnPage && more && !everything && (
        <button type="button" onClick={() => void selectMatching()} disabled={loading}>
          {loading ? 'Selecting…' : `Select all ${total} matching ${noun}s`}
        </button>
      )}
      {everything && more && (
        <span role="status">
          All {total} matching {noun}s are selected.
        </span>
      )}
      {failed && <span class="issue">{failed}</span>}
      <small class="hint">Keys: j/k move, x select, a approve, r reject</small>
    </div>
  );
}
