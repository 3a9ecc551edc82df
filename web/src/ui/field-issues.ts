import type { Refusal } from '../api/client';

/** Whether an issue's path is about this field: the field itself or a part of it (`email`, `permissions.2`). */
export const isAt = (path: string, name: string): boolean => path === name || path.startsWith(`${name}.`);

/**
 * An issue as a sentence under its field. The API words its reasons for programs, in lower case
 * and by the field's name ("new_password must be 6 to 128 characters"); under the field they read
 * with its label, a capital first and a full stop last ("New password must be 6 to 128 characters.").
 */
export function asSentence(message: string, name?: string, label?: string): string {
  const text = message.trim();
  const named = name && label && text.startsWith(`${name} `) ? `${label}${text.slice(name.length)}` : text;
  const capital = named.charAt(0).toUpperCase() + named.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The refusal without what it says of these fields; nothing left when that was all it said. */
function withoutFields(refusal: Refusal, names: string[]): Refusal | null {
  const issues = refusal.issues.filter((i) => !names.some((name) => isAt(i.path, name)));
  if (issues.length === refusal.issues.length) return refusal;
  return issues.length ? { ...refusal, issues } : null;
}

/**
 * A field's setter that also drops what the last refusal said of it (and of `names`, fields that
 * answer one rule with it): a field changed is a field being fixed, and the others' issues stay
 * until the next try.
 */
export function fixing<T>(
  set: (value: T) => void,
  setRefusal: (update: (r: Refusal | null) => Refusal | null) => void,
  names: string[],
): (value: T) => void {
  return (value) => {
    set(value);
    setRefusal((r) => r && withoutFields(r, names));
  };
}

/**
 * Binds a form's text fields to its refusal: `bound(name, value, set)` gives a field its name, its
 * value and the refusal, its typing dropping what the refusal said of it (`fixing`), so the name a
 * field sends and the name whose issues it clears cannot drift apart.
 */
export function bindFields(
  refusal: Refusal | null,
  setRefusal: (update: (r: Refusal | null) => Refusal | null) => void,
) {
  return (name: string, value: string, set: (value: string) => void) => ({
    name,
    value,
    refusal,
    onInput: fixing(set, setRefusal, [name]),
  });
}
