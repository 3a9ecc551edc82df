// Specification §8: a reason is 1 to 500 characters, for requests and decisions alike.
export const REASON_MAX_LENGTH = 500;

/** A reason box with its counter, so the limit is seen before the service refuses it. */
export function ReasonField({ id, label, value, onInput }: { id: string; label: string; value: string; onInput: (v: string) => void }) {
  const left = REASON_MAX_LENGTH - value.length;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} rows={3} maxLength={REASON_MAX_LENGTH} required value={value} aria-describedby={`${id}-count`} onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)} />
      <small id={`${id}-count`} class={left < 50 ? 'hint low' : 'hint'} aria-live="polite">
        {value.length} / {REASON_MAX_LENGTH} characters
      </small>
    </div>
  );
}
