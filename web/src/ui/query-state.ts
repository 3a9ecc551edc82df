import { useEffect, useState } from 'preact/hooks';

/** Where a paged list stands: the cursors of the pages before, kept with the history entry. */
interface PagedState {
  cursors?: string[];
}

/**
 * A screen's filter, search and page in the address's query: back, reload and a shared link keep
 * them. Each change is a history entry of its own, so back returns to the list as it was.
 */
export function useQueryState(): {
  params: URLSearchParams;
  cursors: string[];
  update: (changes: Record<string, string | undefined>, cursors?: string[]) => void;
} {
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    const changed = () => setSearch(location.search);
    addEventListener('popstate', changed);
    return () => removeEventListener('popstate', changed);
  }, []);
  const update = (changes: Record<string, string | undefined>, cursors: string[] = []) => {
    const params = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(changes)) {
      if (value) params.set(name, value);
      else params.delete(name);
    }
    const query = params.toString();
    history.pushState({ cursors } satisfies PagedState, '', `${location.pathname}${query ? `?${query}` : ''}`);
    setSearch(location.search);
  };
  const cursors = (history.state as PagedState | null)?.cursors ?? [];
  return { params: new URLSearchParams(search), cursors, update };
}
