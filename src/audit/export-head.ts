import { Position } from '../stores/ports';

/**
 * The signed head that ends each export page (docs/audit.md, "The export's head"): a C2SP signed
 * note whose text says where the page starts and ends, how many events it holds, the Merkle root
 * of their leaves and the SHA-256 of the event lines' exact bytes, so that every byte of every
 * line (usernames included, which no leaf holds) is signed. Its first line, `<origin>/export`,
 * keeps it from ever reading as a checkpoint of the log.
 */
export interface ExportHead {
  /** The log's origin (AUDIT_LOG_ORIGIN), as its checkpoints name it. */
  origin: string;
  /** The position the page was asked to start after; '' for the beginning of the log. */
  from: Position;
  /** Where the next page starts: the last event's position, or `from` when there was none. */
  next: Position;
  count: number;
  /** Whether the log held more events after `next` when the page ended. */
  more: boolean;
  /** MTH (RFC 9162) of the page's events' leaves, in order. */
  root: Buffer;
  /** SHA-256 of the page's event lines, each with its newline, as sent. */
  lines: Buffer;
  /** When it was signed (ISO 8601, UTC). */
  time: string;
}

/** The head line's fields besides the note: each says what the note says, for clients that page. */
export interface ExportHeadLine {
  from: Position;
  next: Position;
  count: number;
  more: boolean;
  root: string;
  lines: string;
  signed_at: string;
  /** The signed note; the verifier holds every other field to it. */
  note: string;
}

// Positions are opaque and may hold any character: quoted as JSON strings, one per line.
export const exportHeadText = (h: ExportHead): string =>
  [
    `${h.origin}/export`,
    `from ${JSON.stringify(h.from)}`,
    `next ${JSON.stringify(h.next)}`,
    `count ${h.count}`,
    `more ${h.more}`,
    `root ${h.root.toString('base64')}`,
    `lines ${h.lines.toString('hex')}`,
    `time ${h.time}`,
    '',
  ].join('\n');

export const exportHeadLine = (h: ExportHead, note: string): ExportHeadLine => ({
  from: h.from,
  next: h.next,
  count: h.count,
  more: h.more,
  root: h.root.toString('base64'),
  lines: h.lines.toString('hex'),
  signed_at: h.time,
  note,
});

const LINES = ['from', 'next', 'count', 'more', 'root', 'lines', 'time'] as const;

/** Reads a head's text (its signatures split off); throws saying what is wrong. */
export function parseExportHead(text: string): ExportHead {
  const lines = text.split('\n');
  if (lines.length !== LINES.length + 2 || lines.at(-1) !== '' || !lines[0]!.endsWith('/export')) {
    throw new Error(`an export head reads <origin>/export, then ${LINES.join(', ')}, each on its own line`);
  }
  const value = Object.fromEntries(
    LINES.map((name, i) => {
      const line = lines[i + 1]!;
      if (!line.startsWith(`${name} `)) throw new Error(`line ${i + 2} of the export head is not its ${name}`);
      return [name, line.slice(name.length + 1)];
    }),
  ) as Record<(typeof LINES)[number], string>;
  const root = Buffer.from(value.root, 'base64');
  if (root.length !== 32 || root.toString('base64') !== value.root)
    throw new Error("the export head's root is not 32 bytes in base64");
  if (!/^[0-9a-f]{64}$/.test(value.lines)) throw new Error("the export head's lines is not a SHA-256 in hex");
  if (!/^(0|[1-9][0-9]*)$/.test(value.count) || !Number.isSafeInteger(Number(value.count)))
    throw new Error("the export head's count is not a decimal number");
  if (value.more !== 'true' && value.more !== 'false')
    throw new Error("the export head's more is neither true nor false");
  return {
    origin: lines[0]!.slice(0, -'/export'.length),
    from: positionOf(value.from, 'from'),
    next: positionOf(value.next, 'next'),
    count: Number(value.count),
    more: value.more === 'true',
    root,
    lines: Buffer.from(value.lines, 'hex'),
    time: value.time,
  };
}

function positionOf(quoted: string, name: string): Position {
  try {
    const position: unknown = JSON.parse(quoted);
    if (typeof position === 'string') return position;
  } catch {
    // refused below
  }
  throw new Error(`the export head's ${name} is not a quoted position`);
}
