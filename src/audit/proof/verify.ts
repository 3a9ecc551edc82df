import { ChainFields, digestOf } from '../../shared/domain/chain';
import { exportHeadPayload, ExportEnd } from '../export';
import { checkpointPayload, CHECKPOINT_STREAM, LEGACY_CHECKPOINT_TYPE as CHECKPOINT_TYPE, LegacyCheckpoint as Checkpoint } from './checkpoint';
import { leafHash, MerkleFrontier } from './merkle';
import { holdsSignature } from './signing-key';

/**
 * Checks an export offline (docs/audit.md, "Verifying an export"): every event's digest and link
 * in its stream, the order of the log, each checkpoint's Merkle root and signature, and the signed
 * head of each export the file holds. Answers what held, or the first line that does not.
 */

export type Verdict = { ok: true; summary: string } | { ok: false; line: number; problem: string };

/** An event line as the export writes it: the fields the verifier reads. */
interface EventLine {
  position: string;
  stream: string;
  revision: number;
  type: string;
  time: string | null;
  actor: { kind: unknown; id: unknown } | null;
  reason?: string;
  data: unknown;
  recorded_data?: unknown;
  schema_version?: number;
  request_id?: string | null;
  secrets?: string;
  digest?: string;
  prev_digest?: string | null;
}

class Broken extends Error {
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

const isHead = (line: Record<string, unknown>): boolean => 'next' in line && 'more' in line && !('stream' in line);
const named = (e: EventLine) => `event ${e.type} #${e.revision} of ${e.stream} at position ${e.position}`;

/** The fields the event's digest covers, read back from its export line. */
export function chainFieldsOfLine(e: EventLine): ChainFields {
  return {
    stream: e.stream,
    revision: e.revision,
    type: e.type,
    schema_version: e.schema_version ?? 1,
    data: e.recorded_data ?? e.data,
    secrets: e.secrets ?? null,
    actor: e.actor ? { kind: e.actor.kind ?? null, id: e.actor.id ?? null } : null,
    time: e.time ?? null,
    reason: e.reason ?? null,
    request_id: e.request_id ?? null,
    prev_digest: e.prev_digest ?? null,
  };
}

export function verifyExport(lines: readonly Record<string, unknown>[], publicKeyPem: string): Verdict {
  try {
    return { ok: true, summary: check(lines, publicKeyPem) };
  } catch (err) {
    if (err instanceof Broken) return { ok: false, line: err.line, problem: err.problem };
    throw err;
  }
}

function check(lines: readonly Record<string, unknown>[], publicKeyPem: string): string {
  if (lines.length === 0) throw new Broken(0, 'the file holds no line: it is not an export');
  const firstHead = lines.find(isHead) as ExportEnd | undefined;
  // Roots can be recomputed only over the whole log: an export from its beginning.
  const fromStart = firstHead?.from === '';
  const streams = new Map<string, { revision: number; digest: string; chained: boolean }>();
  const whole = MerkleFrontier.empty();
  const rootAt = new Map<string, { count: number; root: string }>();
  let part = MerkleFrontier.empty();
  let partFrom: string | null = null;
  let lastPosition: string | null = null;
  let checkpoints: Checkpoint[] = [];
  let heads = 0;
  let events = 0;
  let links = 0;
  let cut = false;

  lines.forEach((line, index) => {
    const n = index + 1;
    if (isHead(line)) {
      const head = line as unknown as ExportEnd;
      if (!holdsSignature(publicKeyPem, exportHeadPayload(head), head.signature)) throw new Broken(n, "the export's signed head does not verify: it was changed or forged, or signed with another key");
      if (partFrom !== null && head.from !== partFrom) throw new Broken(n, `this export starts at ${head.from || 'the beginning'}, not where the one before it ended (${partFrom}): an export is missing`);
      if (head.count !== part.count || head.root !== part.root().toString('hex')) {
        throw new Broken(n, `the export's signed head covers ${head.count} events, and they are not the ${part.count} lines above it: an event line was changed, taken out, added or reordered`);
      }
      partFrom = head.next;
      part = MerkleFrontier.empty();
      heads += 1;
      cut = false;
      return;
    }
    const e = line as unknown as EventLine;
    if (typeof e.stream !== 'string' || typeof e.position !== 'string' || typeof e.revision !== 'number') throw new Broken(n, 'not an export line: no stream, revision or position');
    if (lastPosition !== null && e.position <= lastPosition) throw new Broken(n, `${named(e)} comes after position ${lastPosition}: the lines were reordered or repeated`);
    lastPosition = e.position;
    const digest = digestOf(chainFieldsOfLine(e));
    if (e.digest !== undefined && e.digest !== digest) throw new Broken(n, `${named(e)} does not match its digest: a field of it was changed`);
    const before = streams.get(e.stream);
    if (before && e.revision !== before.revision + 1) throw new Broken(n, `${named(e)} follows #${before.revision} of its stream: an event between them was taken out, or the lines reordered`);
    if (!before && fromStart && e.revision !== 0) throw new Broken(n, `${named(e)} is the first of its stream in an export from the beginning of the log: the events before it were taken out`);
    if (e.digest !== undefined && (before || e.revision === 0)) {
      const expected = before?.chained ? before.digest : null;
      if ((e.prev_digest ?? null) !== expected) throw new Broken(n, `${named(e)} does not link to the event before it in its stream: that one was changed or taken out`);
      links += 1;
    }
    streams.set(e.stream, { revision: e.revision, digest, chained: e.digest !== undefined });
    const leaf = leafHash(Buffer.from(digest, 'hex'));
    whole.add(leaf);
    part.add(leaf);
    rootAt.set(e.position, { count: whole.count, root: whole.root().toString('hex') });
    events += 1;
    cut = true;
    if (e.stream === CHECKPOINT_STREAM && e.type === CHECKPOINT_TYPE) checkpoints = [...checkpoints, checkCheckpoint(n, e, fromStart, rootAt, publicKeyPem)];
  });

  if (cut || heads === 0) throw new Broken(lines.length, 'the export ends without its signed head: lines were taken off its end');
  const last = checkpoints.at(-1);
  const upTo = last ? `verified up to checkpoint ${last.number} (position ${last.position}, ${last.count} events), signed at ${last.signed_at}` : 'no checkpoint in it yet';
  const roots = fromStart ? '' : ' (checkpoint roots not recomputed: the export does not start at the beginning of the log)';
  // The last head signs whether the log held more: a page must not pass for the whole log.
  const lastHead = lines.findLast(isHead) as ExportEnd | undefined;
  const page = lastHead?.more ? `; the export is a page: the log goes on past position ${lastHead.next}, beyond what it holds` : '';
  return `OK: ${events} events, ${links} chain links, ${checkpoints.length} checkpoints and ${heads} signed export heads hold; ${upTo}${roots}${page}`;
}

function checkCheckpoint(n: number, e: EventLine, fromStart: boolean, rootAt: Map<string, { count: number; root: string }>, publicKeyPem: string): Checkpoint {
  const c = e.data as Checkpoint;
  if (!holdsSignature(publicKeyPem, checkpointPayload(c), c.signature)) throw new Broken(n, `checkpoint ${String(c.number)} at position ${e.position} does not verify: it was changed or forged, or signed with another key`);
  if (!fromStart) return c;
  const covered = rootAt.get(c.position);
  if (!covered || covered.count !== c.count || covered.root !== c.root) {
    throw new Broken(n, `checkpoint ${c.number} signed ${c.count} events up to position ${c.position}, and the lines above it differ: an event up to it was changed, taken out or reordered`);
  }
  return c;
}
