import { useEffect, useState } from 'preact/hooks';
import { Loading, LoadFailed } from '../ui/notice';
import type { PartnerReference as Screen } from './reference/partner-reference';

/** Where fetching the reference's own chunk stands. */
type ChunkLoad = { state: 'loading' } | { state: 'ready'; Screen: typeof Screen } | { state: 'failed' };

/**
 * The partner reference is its own chunk, fetched when a member opens it: the contract, the schema
 * tree and "try it" stay off the first screen's script.
 */
export function PartnerReference({ apiid }: { apiid: string | null }) {
  const [loaded, setLoaded] = useState<ChunkLoad>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    import('./reference/partner-reference').then(
      (module) => current && setLoaded({ state: 'ready', Screen: module.PartnerReference }),
      () => current && setLoaded({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [round]);
  if (loaded.state === 'ready') return <loaded.Screen apiid={apiid} />;
  if (loaded.state === 'failed') {
    const refusal = { status: 0, message: 'The reference could not be loaded: check the connection and try again.', error: 'network', issues: [] };
    return (
      <LoadFailed
        refusal={refusal}
        onRetry={() => {
          setLoaded({ state: 'loading' });
          setRound((r) => r + 1);
        }}
      />
    );
  }
  return <Loading what="the API reference" />;
}
