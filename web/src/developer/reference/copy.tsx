import { useState } from 'preact/hooks';

/** A button that copies `text`, saying beside it whether that worked (a browser may refuse the clipboard). */
/** `label` is what the button shows; `name` adds what it copies, for a page with many of them. */
export function CopyButton({ text, label, name }: { text: string; label: string; name: string }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  return (
    <>
      <button type="button" class="copy" aria-label={name} onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" class="copied">
        {copied === 'copied'
          ? 'Copied.'
          : copied === 'failed'
            ? 'Copying failed: select the text and copy it by hand.'
            : ''}
      </span>
    </>
  );
}
