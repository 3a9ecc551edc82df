import { useState } from 'preact/hooks';
import type { Refusal } from '../api/client';
import { RefusalNotice } from './notice';
import { ReasonField } from './reason';

/** A decision that needs a reason (reject, revoke): the button opens the reason box in place. */
export function ReasonAction({ id, label, onSend }: { id: string; label: string; onSend: (reason: string) => Promise<Refusal | null> }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  if (!open) {
    return (
      <button type="button" class="danger" onClick={() => setOpen(true)}>
        {label}…
      </button>
    );
  }
  const send = async (event: Event) => {
    event.preventDefault();
    const refused = await onSend(reason);
    setRefusal(refused);
    if (!refused) setOpen(false);
  };
  return (
    <form class="reason-action" onSubmit={send}>
      <ReasonField id={id} label={`Reason (${label.toLowerCase()})`} value={reason} onInput={setReason} />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="danger">
        {label}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
