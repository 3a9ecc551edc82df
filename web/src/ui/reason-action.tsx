import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Refusal } from '../api/client';
import { useDraft } from './draft';
import { RefusalNotice } from './notice';
import { ReasonField } from './reason';

/** The decisions that need a reason, and how the reason box names them. */
const DOING = { Reject: 'rejecting', Revoke: 'revoking' } as const;

interface ReasonActionProps {
  id: string;
  label: keyof typeof DOING;
  /** What is decided, as a screen reader hears it beside the other rows' buttons: "alice's application". */
  subject: string;
  /**
   * The button's words when the label alone would be ambiguous beside the row's other decisions
   * ("Reject extension" next to "Revoke"); its name then starts with them, as a speech user says them.
   */
  text?: string;
  onSend: (reason: string) => Promise<Refusal | null>;
}

/**
 * A decision that needs a reason (reject, revoke): the button opens the reason box in place, with
 * focus in it. Cancel or Escape closes it and puts focus back on the button; after a decision the
 * caller's outcome takes focus, since the row may be gone.
 */
export function ReasonAction({ id, label, subject, text = label, onSend }: ReasonActionProps) {
  const [reason, setReason, clearReason] = useDraft(`reason-${id}`);
  // A reason typed before the page was left (a session that ended, a reload) shows in its open box.
  const [open, setOpen] = useState(reason !== '');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const cancelled = useRef(false);

  // Before the next paint: keys typed right after opening land in the box.
  useLayoutEffect(() => {
    if (open) field.current?.focus();
    else if (cancelled.current) opener.current?.focus();
    cancelled.current = false;
  }, [open]);

  if (!open) {
    return (
      <button
        type="button"
        class="danger"
        ref={opener}
        onClick={() => setOpen(true)}
        aria-label={`${label} ${subject}…`}
      >
        {text}…
      </button>
    );
  }
  const cancel = () => {
    cancelled.current = true;
    setOpen(false);
  };
  const send = async (event: Event) => {
    event.preventDefault();
    const refused = await onSend(reason);
    setRefusal(refused);
    if (refused) return;
    clearReason();
    setOpen(false);
  };
  return (
    <form
      class="reason-action"
      onSubmit={send}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        cancel();
      }}
    >
      <ReasonField
        id={id}
        label={`Reason for ${DOING[label]} ${subject}`}
        value={reason}
        onInput={setReason}
        fieldRef={field}
      />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="danger" aria-label={`${label} ${subject}`}>
        {text}
      </button>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </form>
  );
}
