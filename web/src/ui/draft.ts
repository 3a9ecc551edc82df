import { useRef, useState } from 'preact/hooks';
import { currentPath } from '../router';

/**
 * What a user typed into a screen's text fields (a reason, a purpose), kept until it is sent: in
 * memory and in the tab's sessionStorage, keyed by the screen's path and the field's name, so that
 * a session that ends meanwhile (sign in again, even after a reload) loses none of it. Only for
 * words meant to be sent: never a password, a key or a secret. Signing out forgets them all
 * (`forgetDrafts`): whoever signs in next in this tab reads none of them.
 */
const PREFIX = 'draft:';
const memory = new Map<string, string>();

function stored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    // Storage refused (private mode, quota): memory alone keeps the draft for this page's life.
    return null;
  }
}

function store(key: string, value: string): void {
  if (value) memory.set(key, value);
  else memory.delete(key);
  try {
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch {
    // As above: memory keeps it.
  }
}

/** Forgets every draft, in memory and in the tab's storage: at sign-out, before another person may sign in here. */
export function forgetDrafts(): void {
  memory.clear();
  try {
    const keys = Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i) ?? '');
    for (const key of keys.filter((k) => k.startsWith(PREFIX))) sessionStorage.removeItem(key);
  } catch {
    // Storage refused: it holds no draft either.
  }
}

/** A draft of one field on the current screen: its value, a setter that keeps it, and `clear` for once it is sent. */
export function useDraft(name: string): [string, (value: string) => void, () => void] {
  // The screen's path when the field appeared: a navigation away changes the address before the field is gone.
  const key = useRef(`${PREFIX}${currentPath()}:${name}`).current;
  const [value, setValue] = useState(() => memory.get(key) ?? stored(key) ?? '');
  const set = (next: string) => {
    setValue(next);
    store(key, next);
  };
  return [value, set, () => set('')];
}
