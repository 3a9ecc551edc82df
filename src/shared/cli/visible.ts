const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

// C0 and C1 controls and DEL (newlines, ESC starting ANSI and OSC sequences), the Unicode line and
// paragraph separators, and the bidirectional overrides that reorder what a terminal shows.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/g;

/**
 * Text typed by members (reasons, usernames) as a terminal may show it: every control character
 * escaped (\n, \x1b, \u2028), so that it cannot end a line, move the cursor or restyle what
 * follows. One event stays one line; a backslash is doubled so an escape cannot be faked.
 */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => NAMED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u${c.charCodeAt(0).toString(16)}`));
}
