import { HttpError } from './envelope';

// With the u flag a surrogate matches only when it is not half of a pair.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** A place in a parsed body: its value, and the key and place it hangs from (null at the top). */
interface Place {
  value: unknown;
  key: string;
  parent: Place | null;
}

const pathOf = (place: Place | null): string[] => {
  const path: string[] = [];
  for (let at = place; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * Where in a parsed body a string (a value or a key) holds a lone surrogate; null when none does.
 * A walk with a stack of its own, each place linked to its parent: a body nested thousands deep is
 * still checked in time and memory linear in its size, where recursion ran out of call stack (a
 * 500 found by the fuzz).
 */
function loneSurrogateAt(body: unknown): string[] | null {
  const pending: Place[] = [{ value: body, key: '', parent: null }];
  for (let place = pending.pop(); place; place = pending.pop()) {
    const { value } = place;
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return pathOf(place);
    if (value === null || typeof value !== 'object') continue;
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return [...pathOf(place), key];
      pending.push({ value: item, key, parent: place });
    }
  }
  return null;
}

/**
 * Refuses a body with a lone surrogate in any string (JSON lets "\ud800" through): it is no text,
 * and stored it breaks whatever later encodes it as UTF-8 (an export line, a mail, a page), or is
 * silently replaced there. Checked once here, so every text field of every endpoint is covered.
 */
export function refuseLoneSurrogates(body: unknown): void {
  const path = loneSurrogateAt(body);
  if (!path) return;
  const field = path.join('.') || '(body)';
  const message = 'holds a lone surrogate (half of a UTF-16 pair), which is no character: send well-formed text';
  throw new HttpError(422, 'validation_failed', `${field}: ${message}`, [{ path: field, message }]);
}
