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
