/**
 * C0 and C1 controls and DEL (newlines, ESC starting ANSI and OSC sequences), the Unicode line and
 * paragraph separators, and the bidirectional overrides that reorder what is shown after them.
 */
export const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const CONTROL = new RegExp(`[${CONTROL_CHARACTERS}]`);

/**
 * A name others read in lists, tables and the open API (a group's): 1 to `max` characters, not
 * only spaces, and none that could break a line or reorder what a terminal or a page shows.
 */
export function isLabel(name: string, max: number): boolean {
  return name.trim() !== '' && name.length <= max && !CONTROL.test(name);
}
