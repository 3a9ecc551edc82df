import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Refusal } from '../api/client';
import { takeArrival } from '../router';

/**
 * A notice that takes focus each time `key` changes to something: the control that acted has
 * often gone with its row or form, and focus would otherwise fall to the page's start. It wins
 * over the screen's heading when an action leads to another screen.
 */
function useFocusOnEach(key: unknown) {
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!key || !notice.current) return;
    takeArrival();
    notice.current.focus();
  }, [key]);
  return notice;
}

/** A refusal, in place, with the envelope's message: read out by screen readers as it appears. */
export function RefusalNotice({ refusal, takeFocus = false }: { refusal: Refusal | null; takeFocus?: boolean }) {
  // With `takeFocus`, each new refusal takes focus, as an outcome does.
  const notice = useFocusOnEach(takeFocus ? refusal : null);
  if (!refusal) return null;
  return (
    <p ref={notice} class="notice refusal" role="alert" tabIndex={takeFocus ? -1 : undefined}>
      {refusal.message}
    </p>
  );
}

/**
 * A load that failed: its message, and a way to ask again. Whatever navigation surrounds it stays,
 * so the failure is never a dead end.
 */
export function LoadFailed({ refusal, onRetry }: { refusal: Refusal; onRetry: () => void }) {
  return (
    <div class="notice refusal load-failed" role="alert">
      <p>{refusal.message}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** What an action did, numbered: the same words twice are still two outcomes, each taking focus. */
export interface Outcome {
  message: string;
  serial: number;
}

/** An outcome to show with `Done`: `report` says what was done, `clear` forgets it. */
export function useOutcome(): [Outcome, (message: string) => void, () => void] {
  const [outcome, setOutcome] = useState<Outcome>({ message: '', serial: 0 });
  const report = useCallback((message: string) => setOutcome((o) => ({ message, serial: o.serial + 1 })), []);
  const clear = useCallback(() => setOutcome((o) => (o.message ? { message: '', serial: o.serial } : o)), []);
  return [outcome, report, clear];
}

/**
 * What was done. With `focusKey` (an outcome's serial), each new outcome takes focus; `warning`:
 * done, but not as hoped (a test send the receiver refused).
 */
export function Done({
  children,
  focusKey,
  warning = false,
}: {
  children: ComponentChildren;
  focusKey?: number;
  warning?: boolean;
}) {
  const notice = useFocusOnEach(focusKey);
  if (!children) return null;
  return (
    <p ref={notice} class={warning ? 'notice done warning' : 'notice done'} role="status" tabIndex={-1}>
      {children}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}
