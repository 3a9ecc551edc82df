/**
 * JSON as RFC 8259 reads it, refusing what readers disagree on: an object that names a key twice
 * (JSON.parse keeps the last, other readers the first, so two verifiers would check two different
 * lines). The scan only walks the structure to compare keys; JSON.parse still reads the values.
 */

export class NotStrictJson extends Error {}

const WHITE = new Set([' ', '\t', '\n', '\r']);

export function parseStrictJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NotStrictJson('is not JSON');
  }
  scanValue(text, skipWhite(text, 0));
  return value;
}

function skipWhite(text: string, at: number): number {
  while (at < text.length && WHITE.has(text[at]!)) at++;
  return at;
}

/** The end of the string token starting at `at` (its opening quote). */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** Scans the value at `at` (JSON.parse has already accepted the text); answers where it ends. */
function scanValue(text: string, at: number): number {
  const c = text[at];
  if (c === '"') return stringEnd(text, at);
  if (c === '{') return scanObject(text, at);
  if (c === '[') {
    let i = skipWhite(text, at + 1);
    if (text[i] === ']') return i + 1;
    for (;;) {
      i = skipWhite(text, scanValue(text, i));
      if (text[i] === ']') return i + 1;
      i = skipWhite(text, i + 1);
    }
  }
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  while (i < text.length && !',]}'.includes(text[i]!) && !WHITE.has(text[i]!)) i++;
  return i;
}

function scanObject(text: string, at: number): number {
  const keys = new Set<string>();
  let i = skipWhite(text, at + 1);
  if (text[i] === '}') return i + 1;
  for (;;) {
    const end = stringEnd(text, i);
    // Decoded, so that "reason" and "reas\u006fn" are the same key.
    const key = JSON.parse(text.slice(i, end)) as string;
    if (keys.has(key)) throw new NotStrictJson(`names the key "${key}" twice`);
    keys.add(key);
    i = skipWhite(text, skipWhite(text, end) + 1);
    i = skipWhite(text, scanValue(text, i));
    if (text[i] === '}') return i + 1;
    i = skipWhite(text, i + 1);
  }
}
