import { CONTROL_CHARACTERS } from './domain/labels';

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

// The control characters, and the backslash that starts an escape.
const INVISIBLE = new RegExp(`[${CONTROL_CHARACTERS}\\\\]`, 'g');

/**
 * Text typed by members (reasons, usernames) as a terminal or a plain-text mail may show it: every
 * control character escaped (\n, \x1b, \u2028), so that it cannot end a line, move the cursor or
 * restyle what follows. One event stays one line, and a member's reason cannot forge a line of a
 * reviewer's digest; a backslash is doubled so an escape cannot be faked.
 */
export function visible(text: string): string {
  return text.replace(
    INVISIBLE,
    (c) =>
      NAMED[c] ??
      (c.charCodeAt(0) <= 0xff
        ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
        : `\\u${c.charCodeAt(0).toString(16)}`),
  );
}
