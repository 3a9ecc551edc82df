import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { ConfirmAction, useConfirm } from './confirm-action';

function Asking({ onAnswer }: { onAnswer: (yes: boolean) => void }) {
  const [ask, dialog] = useConfirm();
  return (
    <>
      <button
        type="button"
        onClick={async () =>
          onAnswer(await ask({ title: 'Rotate the API key?', question: 'A new key is issued.', confirm: 'Rotate' }))
        }
      >
        Rotate…
      </button>
      {dialog}
    </>
  );
}

describe('asking in the page', () => {
  it('is a dialog named by its title and described by its question, with focus on the confirming button', async () => {
    render(<Asking onAnswer={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rotate…' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate the API key?' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toBe('A new key is issued.');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Rotate' })));
  });

  it('answers yes with the confirming button, no with Cancel or Escape, and puts focus back where it was', async () => {
    const answers: boolean[] = [];
    render(<Asking onAnswer={(yes) => answers.push(yes)} />);
    const opener = screen.getByRole('button', { name: 'Rotate…' });
    for (const answer of [
      (d: HTMLElement) => fireEvent.click(within(d).getByRole('button', { name: 'Cancel' })),
      (d: HTMLElement) => fireEvent.keyDown(d, { key: 'Escape' }),
      (d: HTMLElement) => fireEvent.click(within(d).getByRole('button', { name: 'Rotate' })),
    ]) {
      opener.focus();
      fireEvent.click(opener);
      answer(screen.getByRole('dialog'));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(document.activeElement).toBe(opener);
    }
    expect(answers).toEqual([false, false, true]);
  });

  it('a ConfirmAction acts only once confirmed', async () => {
    const onConfirm = jest.fn();
    render(
      <ConfirmAction
        label="Remove"
        name="Remove https://example.com/hook"
        title="Remove the webhook?"
        question="Nothing more is sent to it."
        onConfirm={onConfirm}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove https://example.com/hook…' }));
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Remove the webhook?' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove https://example.com/hook…' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });
});
