import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { guardLeaving } from '../router';

export interface ShownOnceProps {
  /** The heading, and the name of what is shown in the leave warning: "API key", "one-time password". */
  title: string;
  what: string;
  /** Why it is the only time, read out with the heading. */
  warning: string;
  /** The fields shown, the secret among them. */
  children: ComponentChildren;
  /** What the copy button copies. */
  secret: string;
  onStored: () => void;
}

/**
 * A secret shown once: a copy button, and an "I have stored it" confirmation without which
 * leaving asks first. Once confirmed it is dropped from memory and never shown again. It takes
 * focus as it appears, its heading read out with the warning that this is the only time.
 */
export function ShownOnce({ title, what, warning, children, secret, onStored }: ShownOnceProps) {
  const [stored, setStored] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const leaveWarning = `The ${what} is shown only this once. Leave without storing it?`;

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = leaveWarning;
    };
    addEventListener('beforeunload', beforeUnload);
    guardLeaving(() => confirm(leaveWarning));
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      guardLeaving(null);
    };
  }, [leaveWarning]);

  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );

  return (
    <section class="key-once" aria-labelledby="key-once-title">
      <h2 id="key-once-title" ref={heading} tabIndex={-1} aria-describedby="key-once-warning">
        {title}
      </h2>
      <p id="key-once-warning" class="warning">
        {warning}
      </p>
      {children}
      <button type="button" onClick={copy}>
        Copy the {what}
      </button>
      <span role="status" class="copied">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? `Copying failed: select the ${what} and copy it by hand.` : ''}
      </span>
      <div class="check">
        <input id="key-stored" type="checkbox" checked={stored} onChange={(e) => setStored((e.currentTarget as HTMLInputElement).checked)} />
        <label for="key-stored">I have stored the {what} somewhere safe</label>
      </div>
      <button
        type="button"
        class="primary"
        disabled={!stored}
        onClick={() => {
          guardLeaving(null);
          onStored();
        }}
      >
        Done: hide the {what}
      </button>
    </section>
  );
}
