import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Refusal } from '../api/client';

/** Said once a session is renewed over a screen (`SignInAgain`): the reads it refused run again. */
export const SIGNED_IN_AGAIN = 'platform:signed-in-again';

/** What a load gives `useLoad`: the client's `Answer` (api/client.ts) or any read shaped like it, its message unread. */
type ReadAnswer<T> = { ok: true; data: T } | { ok: false; refusal: Refusal };

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; refusal: Refusal };

/** Loads on mount and whenever `deps` change; `reload` after a write shows what it changed. */
export function useLoad<T>(load: () => Promise<ReadAnswer<T>>, deps: unknown[] = []): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    void load().then((answer) => {
      if (!current) return;
      setLoaded(answer.ok ? { state: 'ready', data: answer.data } : { state: 'failed', refusal: answer.refusal });
    });
    return () => {
      current = false;
    };
  }, [round, ...deps]);
  // After a write the list stays on screen while it reloads; after a failure, the retry shows it is loading.
  const reload = useCallback(() => {
    setLoaded((l) => (l.state === 'failed' ? { state: 'loading' } : l));
    setRound((r) => r + 1);
  }, []);
  // A read the ended session refused runs again once the user signed in again over the screen.
  const refusedForSession = loaded.state === 'failed' && loaded.refusal.status === 401;
  useEffect(() => {
    if (!refusedForSession) return;
    addEventListener(SIGNED_IN_AGAIN, reload);
    return () => removeEventListener(SIGNED_IN_AGAIN, reload);
  }, [refusedForSession]);
  return [loaded, reload];
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
