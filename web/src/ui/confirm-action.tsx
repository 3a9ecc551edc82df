import type { VNode } from 'preact';
import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** What is asked before an action that cannot be undone, or before leaving what would be lost. */
export interface Question {
  /** The dialog's title: "Remove the webhook?" */
  title: string;
  /** What the action does. */
  question: string;
  /** The confirming button's words: "Remove". */
  confirm: string;
  /** The other button's words: "Cancel" unless said. */
  cancel?: string;
}

let serial = 0;

/**
 * A question asked in the page rather than in the browser's own dialog (which blocks the page,
 * cannot be styled and reads differently in every browser): a modal `<dialog>` named by its title
 * and described by its question, the confirming button focused; Escape or the other button
 * answers no; focus goes back to where it was.
 */
function ConfirmDialog({ ask, onAnswer }: { ask: Question; onAnswer: (yes: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirming = useRef<HTMLButtonElement>(null);
  const [id] = useState(() => `confirm-${++serial}`);
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const element = dialog.current!;
    // jsdom has no showModal: the dialog is then open without the top layer.
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
    confirming.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);
  const answer = (yes: boolean) => {
    dialog.current?.close?.();
    onAnswer(yes);
  };
  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-question`}
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        answer(false);
      }}
    >
      <h2 id={`${id}-title`}>{ask.title}</h2>
      <p id={`${id}-question`}>{ask.question}</p>
      <div class="actions">
        <button type="button" class="danger" ref={confirming} onClick={() => answer(true)}>
          {ask.confirm}
        </button>
        <button type="button" onClick={() => answer(false)}>
          {ask.cancel ?? 'Cancel'}
        </button>
      </div>
    </dialog>
  );
}

/**
 * Asks in the page: `ask(question)` shows the dialog (render the element it gives where the
 * screen is) and resolves with the answer.
 */
export function useConfirm(): [(question: Question) => Promise<boolean>, VNode | null] {
  const [pending, setPending] = useState<{ question: Question; resolve: (yes: boolean) => void } | null>(null);
  const ask = useCallback(
    (question: Question) => new Promise<boolean>((resolve) => setPending({ question, resolve })),
    [],
  );
  const element = pending && (
    <ConfirmDialog
      ask={pending.question}
      onAnswer={(yes) => {
        setPending(null);
        pending.resolve(yes);
      }}
    />
  );
  return [ask, element];
}

interface ConfirmProps {
  /** The button's words: "Remove". */
  label: string;
  /** Its name beside the other rows' buttons: "Remove https://example.com/hook". */
  name: string;
  /** The dialog's title and what the action does. */
  title: string;
  question: string;
  onConfirm: () => void;
}

/** A button for an action that cannot be undone, which asks first. */
export function ConfirmAction({ label, name, title, question, onConfirm }: ConfirmProps) {
  const [ask, dialog] = useConfirm();
  return (
    <>
      <button
        type="button"
        class="danger"
        onClick={async () => (await ask({ title, question, confirm: label })) && onConfirm()}
        aria-label={`${name}…`}
      >
        {label}…
      </button>
      {dialog}
    </>
  );
}
