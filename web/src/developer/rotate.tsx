import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { when } from '../ui/load';
import { useConfirm } from '../ui/confirm-action';
import { RefusalNotice } from '../ui/notice';
import { KeyOnce } from './key-once';

// The rotate schema takes 0 to 86400 seconds. An hour by default: a stray rotation leaves the
// integration that still uses the old key time to switch, instead of breaking it at once.
export const GRACE_CHOICES = [
  { seconds: 0, label: 'none: refuse the old key now' },
  { seconds: 3600, label: 'one hour' },
  { seconds: 86400, label: 'one day' },
];
export const DEFAULT_GRACE_SECONDS = 3600;

/** What the confirmation says happens to the old key. */
export function rotationWarning(graceSeconds: number): string {
  const label = GRACE_CHOICES.find((c) => c.seconds === graceSeconds)?.label ?? `${graceSeconds} seconds`;
  const old =
    graceSeconds === 0
      ? 'The old key stops working at once, with any older key still in a grace period: every call still made with them is refused.'
      : `The old key stops working after the grace period (${label}), and older keys no later: switch your servers to the new key before then.`;
  return `A new key is issued and shown once. ${old}`;
}

/** Replaces the key, after a confirmation naming when the old one stops working; the new key shows once. */
export function Rotate({ onRotated }: { onRotated: () => void }) {
  const [grace, setGrace] = useState(DEFAULT_GRACE_SECONDS);
  const [issued, setIssued] = useState<Schemas['RotatedKey'] | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [ask, dialog] = useConfirm();
  const heading = useRef<HTMLHeadingElement>(null);
  const hidden = useRef(false);
  // The key hidden, its section goes with the button that hid it: focus returns to the rotation.
  useEffect(() => {
    if (issued || !hidden.current) return;
    hidden.current = false;
    heading.current?.focus();
  }, [issued]);

  if (issued) {
    return (
      <KeyOnce
        apiid={issued.apiid}
        apikey={issued.apikey}
        note={
          issued.previous_key_valid_until
            ? `The old key is accepted until ${when(issued.previous_key_valid_until)}, and no older key longer.`
            : 'The old key, and any older one, is refused from now on.'
        }
        onStored={() => {
          hidden.current = true;
          setIssued(null);
        }}
      />
    );
  }
  const rotate = async () => {
    if (!(await ask({ title: 'Rotate the API key?', question: rotationWarning(grace), confirm: 'Rotate' }))) return;
    const answer = await call(async () =>
      api.POST('/developer/rotate', { params: { header: await csrf() }, body: { grace_seconds: grace } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setIssued(answer.data);
    onRotated();
  };
  return (
    <section aria-labelledby="rotate-title" class="card">
      <h2 id="rotate-title" ref={heading} tabIndex={-1}>
        Rotate the key
      </h2>
      <div class="field">
        <label for="grace">Grace period for the old key</label>
        <select
          id="grace"
          value={String(grace)}
          aria-describedby="grace-hint"
          onChange={(e) => setGrace(Number((e.currentTarget as HTMLSelectElement).value))}
        >
          {GRACE_CHOICES.map((c) => (
            <option key={c.seconds} value={String(c.seconds)}>
              {c.label}
            </option>
          ))}
        </select>
        <small id="grace-hint" class="hint">
          How long the old key keeps working after the rotation. You are asked to confirm before anything changes.
        </small>
      </div>
      <RefusalNotice refusal={refusal} />
      <button type="button" onClick={rotate}>
        Rotate the key…
      </button>
      {dialog}
    </section>
  );
}
