import type { ComponentChildren } from 'preact';
import type { Refusal } from '../api/client';

/** A refusal, in place, with the envelope's message: read out by screen readers as it appears. */
export function RefusalNotice({ refusal }: { refusal: Refusal | null }) {
  if (!refusal) return null;
  return (
    <p class="notice refusal" role="alert">
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

export function Done({ children }: { children: ComponentChildren }) {
  if (!children) return null;
  return (
    <p class="notice done" role="status">
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
