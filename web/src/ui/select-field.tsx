import type { ComponentChildren } from 'preact';

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  /** The choices, in order. */
  options: readonly T[];
  /** The words a choice is shown in: the value itself by default. */
  words?: (value: T) => string;
  onChange: (value: T) => void;
  /** Choices before the list's: "any". */
  children?: ComponentChildren;
}

/** A labelled choice among a list's values. */
export function SelectField<T extends string>({
  id,
  label,
  value,
  options,
  words,
  onChange,
  children,
}: SelectFieldProps<T>) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as T)}>
        {children}
        {options.map((option) => (
          <option key={option} value={option}>
            {words ? words(option) : option}
          </option>
        ))}
      </select>
    </div>
  );
}
