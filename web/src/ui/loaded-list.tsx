import type { ComponentChildren } from 'preact';
import type { Loaded } from './load';
import { Empty, Loading, LoadFailed } from './notice';

interface LoadedListProps<T> {
  loaded: Loaded<{ list: T[] }>;
  onRetry: () => void;
  /** What is being read, as "Loading …" says it: "the webhooks". */
  what: string;
  /** What an empty list says: "No webhook yet." */
  empty: string;
  /** The list once it holds something. */
  children: (list: T[]) => ComponentChildren;
}

/** A list read from the service: loading, why it failed (with a retry), that it is empty, or the list. */
export function LoadedList<T>({ loaded, onRetry, what, empty, children }: LoadedListProps<T>) {
  if (loaded.state === 'loading') return <Loading what={what} />;
  if (loaded.state === 'failed') return <LoadFailed refusal={loaded.refusal} onRetry={onRetry} />;
  if (loaded.data.list.length === 0) return <Empty>{empty}</Empty>;
  return <>{children(loaded.data.list)}</>;
}
