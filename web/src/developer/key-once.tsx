import { useEffect, useRef, useState } from 'preact/hooks';
import { guardLeaving } from '../router';

const LEAVE_WARNING = 'The API key is shown only this once. Leave without storing it?';

/**
 * An API key shown once: a copy button, and an "I have stored it" confirmation without which
 * leaving asks first. Once confirmed it is dropped from memory and never shown again. It takes
 * focus as it appears, its heading read out with the warning that this is the only time.
 */
export function KeyOnce({ apiid, apikey, note, onStored }: { apiid: string; apikey: string; note?: string; onStored: () => void }) {
  const [stored, setStored] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = LEAVE_WARNING;
    };
    addEventListener('beforeunload', beforeUnload);
    guardLeaving(() => confirm(LEAVE_WARNING));
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      guardLeaving(null);
    };
  }, []);

  const copy = () =>
    navigator.clipboard.writeText(apikey).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );

  return (
    <section class="key-once" aria-labelledby="key-once-title">
      <h2 id="key-once-title" ref={heading} tabIndex={-1} aria-describedby="key-once-warning">
        Your API key
      </h2>
      <p id="key-once-warning" class="warning">
        This is the only time the key is shown: only its digest is kept. Store it in your server's secret store now.
      </p>
      {note && <p>{note}</p>}
      <dl>
        <dt>API id (X-API-ID)</dt>
        <dd>
          <code data-testid="apiid">{apiid}</code>
        </dd>
        <dt>API key (X-API-Key)</dt>
        <dd>
          <code data-testid="apikey" class="secret">
            {apikey}
          </code>
        </dd>
      </dl>
      <button type="button" onClick={copy}>
        Copy the key
      </button>
      <span role="status" class="copied">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying failed: select the key and copy it by hand.' : ''}
      </span>
      <div class="check">
        <input id="key-stored" type="checkbox" checked={stored} onChange={(e) => setStored((e.currentTarget as HTMLInputElement).checked)} />
        <label for="key-stored">I have stored the key somewhere safe</label>
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
        Done: hide the key
      </button>
    </section>
  );
}
