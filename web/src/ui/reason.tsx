import type { Ref } from 'preact';

// docs/rules.md, "Limits": a reason is 1 to 500 characters, for requests and decisions alike.
export const REASON_MAX_LENGTH = 500;

/** Below this many characters left, a screen reader hears how many remain: earlier, every keystroke would be read out. */
export const REASON_NEAR_LIMIT = 50;

interface ReasonFieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  fieldRef?: Ref<HTMLTextAreaElement>;
}

/** A reason box with its counter, so the limit is seen before the service refuses it. */
export function ReasonField({ id, label, value, onInput, fieldRef }: ReasonFieldProps) {
  const left = REASON_MAX_LENGTH - value.length;
  const near = left < REASON_NEAR_LIMIT;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        ref={fieldRef}
        rows={3}
        maxLength={REASON_MAX_LENGTH}
        required
        value={value}
        aria-describedby={`${id}-count`}
        onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)}
      />
      <small id={`${id}-count`} class={near ? 'hint low' : 'hint'}>
        {value.length} / {REASON_MAX_LENGTH} characters
      </small>
      <span class="visually-hidden" aria-live="polite" data-testid={`${id}-left`}>
        {near ? `${left} ${left === 1 ? 'character' : 'characters'} left` : ''}
      </span>
    </div>
  );
}
