import { HttpError } from './envelope';

// With the u flag a surrogate matches only when it is not half of a pair.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Where in a parsed body a string (a value or a key) holds a lone surrogate; null when none does. */
function loneSurrogateAt(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key)) return [...path, key];
    const found = loneSurrogateAt(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses a body with a lone surrogate in any string (JSON lets "\ud800" through): it is no text,
 * and stored it breaks whatever later encodes it as UTF-8 (an export line, a mail, a page), or is
 * silently replaced there. Checked once here, so every text field of every endpoint is covered.
 */
export function refuseLoneSurrogates(body: unknown): void {
  const path = loneSurrogateAt(body, []);
  if (!path) return;
  const field = path.join('.') || '(body)';
  const message = 'holds a lone surrogate (half of a UTF-16 pair), which is no character: send well-formed text';
  throw new HttpError(422, 'validation_failed', `${field}: ${message}`, [{ path: field, message }]);
}
