import { useLayoutEffect, useRef, useState } from 'preact/hooks';

interface ConfirmProps {
  /** The button's words: "Remove". */
  label: string;
  /** Its name beside the other rows' buttons: "Remove https://example.com/hook". */
  name: string;
  /** What the action does, asked in place before it is done. */
  question: string;
  onConfirm: () => void;
}

/**
 * An action that cannot be undone, asked in place rather than in the browser's own dialog (which
 * blocks the page, cannot be styled and reads differently in every browser): the button opens the
 * question with the confirming button focused; Cancel or Escape puts focus back on the button.
 */
export function ConfirmAction({ label, name, question, onConfirm }: ConfirmProps) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const confirming = useRef<HTMLButtonElement>(null);
  const cancelled = useRef(false);
  useLayoutEffect(() => {
    if (open) confirming.current?.focus();
    else if (cancelled.current) opener.current?.focus();
    cancelled.current = false;
  }, [open]);

  if (!open) {
    return (
      <button type="button" class="danger" ref={opener} onClick={() => setOpen(true)} aria-label={`${name}…`}>
        {label}…
      </button>
    );
  }
  const cancel = () => {
    cancelled.current = true;
    setOpen(false);
  };
  return (
    <span
      class="confirm-action"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        cancel();
      }}
    >
      <span class="question">{question}</span>
      <button
        type="button"
        class="danger confirm"
        ref={confirming}
        onClick={() => {
          setOpen(false);
          onConfirm();
        }}
        aria-label={name}
      >
        {label}
      </button>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </span>
  );
}
