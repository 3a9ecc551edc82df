import { createInterface } from 'node:readline';

/** The first line of the input without its line ending, or null when the input ends before any. */
export async function readFirstLine(input: NodeJS.ReadableStream = process.stdin): Promise<string | null> {
  // Leaving the loop closes the reader, so stdin does not keep the process alive afterwards.
  for await (const line of createInterface({ input, crlfDelay: Infinity })) return line;
  return null;
}
