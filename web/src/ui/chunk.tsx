import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading, LoadFailed } from './notice';

/** Where fetching a screen's own chunk stands. */
type ChunkLoad<P> = { state: 'loading' } | { state: 'ready'; Screen: ComponentType<P> } | { state: 'failed' };

/**
 * A screen that is its own chunk, fetched when it is opened: its script stays off the first
 * screen's, which has a budget (test/web/first-screen-budget.test.ts). `what` names it in the
 * loading and failure notices, e.g. "the API reference".
 */
export function Chunk<P extends object>({
  load,
  what,
  props,
}: {
  load: () => Promise<ComponentType<P>>;
  what: string;
  props: P;
}) {
  const [loaded, setLoaded] = useState<ChunkLoad<P>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (Screen) => current && setLoaded({ state: 'ready', Screen }),
      () => current && setLoaded({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
    // A retry is a new round; the loader of one screen does not change.
  }, [round]);
  if (loaded.state === 'ready') return <loaded.Screen {...props} />;
  if (loaded.state === 'failed') {
    const refusal = {
      status: 0,
      message: `${what[0]!.toUpperCase()}${what.slice(1)} could not be loaded: check the connection and try again.`,
      error: 'network',
      issues: [],
    };
    const retry = () => {
      setLoaded({ state: 'loading' });
      setRound((r) => r + 1);
    };
    return <LoadFailed refusal={refusal} onRetry={retry} />;
  }
  return <Loading what={what} />;
}
