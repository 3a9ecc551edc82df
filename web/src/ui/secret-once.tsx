import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { guardLeaving } from '../router';
import { useConfirm } from './confirm-action';

export interface SecretWording {
  /** The heading: "Your API key". */
  title: string;
  /** Why it must be stored now: read out with the heading as it takes focus. */
  warning: string;
  /** What is shown: "API key (X-API-Key)", the secret, its test id. */
  label: string;
  testId: string;
  /** "Copy the key", "I have stored the key somewhere safe", "Done: hide the key". */
  copy: string;
  stored: string;
  done: string;
  /** Asked before leaving while it is not stored. */
  leave: string;
}

interface SecretOnceProps {
  secret: string;
  wording: SecretWording;
  /** A line under the warning: until when an old key is accepted. */
  note?: string;
  /** Terms and values shown before the secret: the API id it goes with. */
  children?: ComponentChildren;
  onStored: () => void;
}

/**
 * A secret shown once (an API key, a webhook's signing secret): a copy button, and an "I have
 * stored it" confirmation without which leaving asks first, in the page for a move within the
 * console and in the browser's own words for closing the tab (the only way a page may ask then).
 * Once confirmed it is dropped from memory and never shown again. It takes focus as it appears,
 * its heading read out with the warning that this is the only time.
 */
export function SecretOnce({ secret, wording, note, children, onStored }: SecretOnceProps) {
  const [stored, setStored] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const [ask, dialog] = useConfirm();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = wording.leave;
    };
    addEventListener('beforeunload', beforeUnload);
    guardLeaving(() =>
      ask({ title: 'Leave without storing it?', question: wording.leave, confirm: 'Leave', cancel: 'Stay' }),
    );
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      guardLeaving(null);
    };
  }, []);

  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );

  return (
    <section class="key-once" aria-labelledby="secret-once-title">
      <h2 id="secret-once-title" ref={heading} tabIndex={-1} aria-describedby="secret-once-warning">
        {wording.title}
      </h2>
      <p id="secret-once-warning" class="warning">
        {wording.warning}
      </p>
      {note && <p>{note}</p>}
      <dl>
        {children}
        <dt>{wording.label}</dt>
        <dd>
          <code data-testid={wording.testId} class="secret">
            {secret}
          </code>
        </dd>
      </dl>
      <button type="button" onClick={copy}>
        {wording.copy}
      </button>
      <span role="status" class="copied">
        {copied === 'copied'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copying failed: select it and copy it by hand.'
            : ''}
      </span>
      <div class="check">
        <input
          id="secret-stored"
          type="checkbox"
          checked={stored}
          onChange={(e) => setStored((e.currentTarget as HTMLInputElement).checked)}
        />
        <label for="secret-stored">{wording.stored}</label>
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
        {wording.done}
      </button>
      {dialog}
    </section>
  );
}
