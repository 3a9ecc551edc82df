/**
 * The body of a C2SP tlog checkpoint (c2sp.org/tlog-checkpoint): the log's origin, the tree size
 * in decimal, the root hash in base64, then extension lines. This log adds one, `time <ISO 8601>`,
 * the instant it was signed, which readers of the standard pass over.
 */
export interface TreeHead {
  origin: string;
  size: number;
  root: Buffer;
  /** When it was signed (ISO 8601, UTC). */
  time: string;
}

export const treeHeadText = (head: TreeHead): string =>
  `${head.origin}\n${head.size}\n${head.root.toString('base64')}\ntime ${head.time}\n`;

/** Reads a checkpoint's text (its signatures already split off); throws saying what is wrong. */
export function parseTreeHead(text: string): TreeHead {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '')
    throw new Error('a checkpoint reads: origin, tree size, root hash, each on its own line');
  const [origin, size, root, ...extensions] = lines.slice(0, -1) as [string, string, string, ...string[]];
  if (origin === '') throw new Error('the checkpoint names no origin');
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size)))
    throw new Error(`the tree size "${size}" is not a decimal number`);
  const hash = Buffer.from(root, 'base64');
  if (hash.length !== 32 || hash.toString('base64') !== root)
    throw new Error(`the root hash "${root}" is not 32 bytes in base64`);
  const time = extensions.find((line) => line.startsWith('time '))?.slice(5) ?? '';
  return { origin, size: Number(size), root: hash, time };
}
