import { useEffect, useState } from 'preact/hooks';

/** Search by username or API id: sent on Enter or the button, so each search is one history entry. */
export function QueueSearch({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [typed, setTyped] = useState(value);
  // Back or a shared link changes the search from outside.
  useEffect(() => setTyped(value), [value]);
  return (
    <form
      class="field inline queue-search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <label for="queue-search">Search by username or API id</label>
      <input
        id="queue-search"
        type="search"
        value={typed}
        maxLength={100}
        onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit">Search</button>
    </form>
  );
}

interface PagerProps {
  /** Items on this page, and how many the filter finds in all (null when unknown). */
  shown: number;
  total: number | null;
  /** How many pages come before this one. */
  before: number;
  pageSize: number;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** The service's pages of a list, one at a time, with where this one stands. */
export function Pager({ shown, total, before, pageSize, hasNext, onPrevious, onNext }: PagerProps) {
  if (before === 0 && !hasNext) return null;
  const first = before * pageSize + 1;
  return (
    <nav class="pager" aria-label="Pages">
      <p>
        {first}–{first + shown - 1}
        {total !== null && <> of {total}</>}
      </p>
      <button type="button" onClick={onPrevious} disabled={before === 0}>
        Previous page
      </button>
      <button type="button" onClick={onNext} disabled={!hasNext}>
        Next page
      </button>
    </nav>
  );
}
