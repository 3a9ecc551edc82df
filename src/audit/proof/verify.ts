import { createHash, Hash } from 'node:crypto';
import { digestOf } from '../../shared/domain/chain';
import { Describe } from '../event';
import { ExportHead } from '../export-head';
import { CheckpointLines, VerifiedCheckpoint } from './checkpoint-lines';
import { chainFieldsOfLeaf, EventLine, eventLineOf, fieldShownOtherwise, leafFieldsOfLine } from './export-line';
import { checkHeadLine } from './head-line';
import { leafBytes } from './leaf';
import { LogPrefix } from './log-prefix';
import { leafHash, MerkleFrontier } from './merkle';
import { Refused } from './refused';
import { NotStrictJson, parseStrictJson } from './strict-json';
import { TrustedKeys } from './trusted-keys';

/**
 * Checks an export offline, a line at a time (docs/audit.md, "Verifying an export"): each event
 * line rebuilt from the fields its leaf covers, its digest and its link in its stream; each
 * checkpoint's signature and, from the beginning of the log, its root; and each page's signed
 * head over the exact bytes of the lines above it. It holds one entry per stream and the last
 * CHECKPOINT_REACH sizes of the tree, never the file.
 */

/** How far above a checkpoint the last event it covers may be: the checkpointer appends a few events after it. */
export const CHECKPOINT_REACH = 10_000;

export interface Verified {
  events: number;
  links: number;
  checkpoints: number;
  heads: number;
  /** The last checkpoint in the export, verified. */
  lastCheckpoint: VerifiedCheckpoint | null;
  /** The last page's head: whether the log went on, and when it was signed. */
  lastHead: ExportHead;
  /** Whether the export starts at the beginning of the log, so that the roots were recomputed. */
  fromStart: boolean;
  /** The tree of the export's events: the log's own when the export is from the start. */
  size: number;
  root: Buffer;
  /** A key rotation whose next checkpoint the export does not hold, by line. */
  awaitedRotation: number | null;
}

const named = (e: EventLine) => `event ${e.type} #${e.revision} of ${e.stream} at position ${e.position}`;

const newPage = () => ({
  count: 0,
  tree: MerkleFrontier.empty(),
  bytes: createHash('sha256') as Hash,
  last: null as string | null,
});

export class ExportVerifier {
  private readonly streams = new Map<string, { revision: number; digest: string | null }>();
  private readonly prefix = new LogPrefix(CHECKPOINT_REACH);
  private readonly checkpoints: CheckpointLines;
  private page = newPage();
  private lastHead: ExportHead | null = null;
  /** The log every head and checkpoint names. */
  private origin: string | null = null;
  /** Known at the first head; until then, refusals that hold only from the start wait for it. */
  private fromStart: boolean | null = null;
  private deferred: Refused | null = null;
  private lastCheckpoint: VerifiedCheckpoint | null = null;
  private readonly counts = { events: 0, links: 0, checkpoints: 0, heads: 0 };
  private lines = 0;

  constructor(
    private readonly keys: TrustedKeys,
    private readonly describe: Describe,
  ) {
    this.checkpoints = new CheckpointLines(keys, this.prefix, (refusal) => this.ifFromStart(refusal));
  }

  /** One line of the file, without its newline; `n` from 1. Throws Refused. */
  take(text: string, n: number): void {
    this.lines = n;
    if (text.trim() === '') throw new Refused(n, 'is blank: an export has no blank line');
    let value: unknown;
    try {
      value = parseStrictJson(text);
    } catch (err) {
      if (err instanceof NotStrictJson) throw new Refused(n, err.message);
      throw err;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Refused(n, 'is not a JSON object');
    if ('note' in value) this.head(value, n);
    else this.event(value, text, n);
  }

  /** After the last line: what held. Throws Refused when the file ends inside a page. */
  end(): Verified {
    if (this.lines === 0) throw new Refused(0, 'the file holds no line: it is not an export');
    if (this.lastHead === null || this.page.count > 0)
      throw new Refused(this.lines, 'the export ends without its signed head: lines were taken off its end');
    return {
      ...this.counts,
      lastCheckpoint: this.lastCheckpoint,
      lastHead: this.lastHead,
      fromStart: this.fromStart === true,
      size: this.prefix.count,
      root: this.prefix.leaves.root(),
      awaitedRotation: this.checkpoints.pendingRotation,
    };
  }

  private event(value: object, text: string, n: number): void {
    const e = eventLineOf(value);
    if (typeof e === 'string') throw new Refused(n, `not an export line: ${e}`);
    const leaf = leafFieldsOfLine(e);
    const shown = fieldShownOtherwise(e, leaf, this.describe);
    if (shown !== null)
      throw new Refused(n, `${named(e)} shows its ${shown} otherwise than its recorded fields make it: it was changed`);
    const digest = digestOf(chainFieldsOfLeaf(leaf));
    if (leaf.digest !== null && leaf.digest !== digest)
      throw new Refused(n, `${named(e)} does not match its digest: a field of it was changed`);
    this.link(e, leaf.digest, n);
    const leafHashed = leafHash(leafBytes(leaf));
    this.prefix.add(leafHashed, leafHash(Buffer.from(digest, 'hex')), e.position);
    this.page.tree.add(leafHashed);
    this.page.bytes.update(`${text}\n`, 'utf8');
    this.page.last = e.position;
    this.page.count += 1;
    this.counts.events += 1;
    const checkpoint = this.checkpoints.take({
      n,
      stream: e.stream,
      type: e.type,
      position: e.position,
      data: leaf.data,
    });
    if (checkpoint) {
      if (checkpoint.origin !== null) this.sameLog(checkpoint.origin, n);
      this.lastCheckpoint = checkpoint;
      this.counts.checkpoints += 1;
    }
  }

  /** Revisions follow one another in each stream, and each digest names the one before it. */
  private link(e: EventLine, digest: string | null, n: number): void {
    const before = this.streams.get(e.stream);
    if (before && e.revision !== before.revision + 1) {
      throw new Refused(
        n,
        `${named(e)} follows #${before.revision} of its stream: an event between them was taken out, or the lines reordered or repeated`,
      );
    }
    if (!before && e.revision !== 0)
      this.ifFromStart(
        new Refused(
          n,
          `${named(e)} is the first of its stream in an export from the beginning of the log: the events before it were taken out`,
        ),
      );
    if (digest !== null && (before || e.revision === 0)) {
      if ((e.prev_digest ?? null) !== (before?.digest ?? null))
        throw new Refused(
          n,
          `${named(e)} does not link to the event before it in its stream: that one was changed or taken out`,
        );
      this.counts.links += 1;
    }
    this.streams.set(e.stream, { revision: e.revision, digest });
  }

  private head(value: object, n: number): void {
    const head = checkHeadLine(value, this.keys, n);
    this.sameLog(head.origin, n);
    if (this.lastHead === null) {
      this.fromStart = head.from === '';
      if (this.fromStart && this.deferred) throw this.deferred;
    } else if (head.from !== this.lastHead.next) {
      throw new Refused(
        n,
        `this page starts after ${head.from === '' ? 'the beginning of the log' : `position ${head.from}`}, not where the page before it ended (${this.lastHead.next}): a page is missing`,
      );
    }
    const { count, tree, bytes, last } = this.page;
    if (head.count !== count || !head.root.equals(tree.root()) || !head.lines.equals(bytes.digest())) {
      throw new Refused(
        n,
        `the page's signed head covers ${head.count} event lines, and they are not the ${count} lines above it: an event line was changed, taken out, added or reordered`,
      );
    }
    if (head.next !== (last ?? head.from))
      throw new Refused(
        n,
        `the page's signed head ends at position ${head.next}, and its last event line is at ${last ?? 'none'}: the lines are not the ones it signed`,
      );
    this.lastHead = head;
    this.page = newPage();
    this.counts.heads += 1;
  }

  /** A refusal that holds only in an export from the beginning of the log. */
  private ifFromStart(refusal: Refused): void {
    if (this.fromStart === true) throw refusal;
    if (this.fromStart === null) this.deferred ??= refusal;
  }

  /** Every head and checkpoint names one log: two services' exports spliced name two. */
  private sameLog(origin: string, n: number): void {
    this.origin ??= origin;
    if (origin !== this.origin)
      throw new Refused(
        n,
        `this line is signed for the log ${origin}, the lines before it for ${this.origin}: two logs' exports were spliced`,
      );
  }
}
