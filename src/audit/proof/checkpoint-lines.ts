import { z } from 'zod';
import { checkpointPayload, CHECKPOINT_TYPE } from './checkpoint';
import { LogPrefix } from './log-prefix';
import { MalformedNote, NoteKey, parseVerifierKey } from './note';
import { Refused } from './refused';
import { parseTreeHead } from './tree-head';
import { TrustedKeys } from './trusted-keys';

/** A checkpoint as a C2SP signed note (c2sp.org/tlog-checkpoint), with where it stands in the log. */
export const SIGNED_CHECKPOINT_TYPE = 'AuditCheckpointSigned';
/** The signing key replaced: the checkpoint after it is signed by the old key and the new one. */
export const KEY_ROTATION_TYPE = 'AuditSigningKeyRotated';

const signedCheckpointSchema = z.object({ note: z.string(), size: z.int().min(0), position: z.string() });
const legacyCheckpointSchema = z.object({
  number: z.int().min(1),
  position: z.string(),
  count: z.int().min(1),
  root: z.string(),
  signed_at: z.string(),
  signature: z.string(),
});
const rotationSchema = z.object({ previous: z.string(), next: z.string() });

export interface VerifiedCheckpoint {
  size: number;
  /** When it was signed, as it says. */
  time: string;
  /** Its root over the leaves of src/audit/proof/leaf.ts; null for a checkpoint from before notes, whose leaves may be digests. */
  root: Buffer | null;
  /** The signed note, or null for a checkpoint from before notes. */
  note: string | null;
  /** The log's name, or null for a checkpoint from before notes, which names none. */
  origin: string | null;
}

interface Line {
  n: number;
  stream: string;
  type: string;
  position: string;
  data: unknown;
}

/**
 * Checks the checkpoints and key rotations of an export as they come, against the log read so far:
 * each signature by a trusted key, and, in an export from the beginning of the log, each root and
 * position against the events above it. A rotation trusts its new key once the next checkpoint is
 * signed by both the old key and the new one.
 */
export class CheckpointLines {
  private rotation: { n: number; old: NoteKey; next: NoteKey } | null = null;

  /**
   * `fromStart` is told each refusal that holds only in an export from the beginning of the log
   * (a root, a position): the verifier knows that from the first page's head, after its lines.
   */
  constructor(
    private readonly keys: TrustedKeys,
    private readonly prefix: LogPrefix,
    private readonly fromStart: (refusal: Refused) => void,
  ) {}

  /** The checkpoint the line is, verified; null for a line of another kind. */
  take(line: Line): VerifiedCheckpoint | null {
    if (line.type === KEY_ROTATION_TYPE) this.rotated(line);
    if (line.type === SIGNED_CHECKPOINT_TYPE) return this.signed(line);
    if (line.type === CHECKPOINT_TYPE && line.stream === 'audit-checkpoints') return this.legacy(line);
    return null;
  }

  private rotated({ n, data }: Line): void {
    const parsed = rotationSchema.safeParse(data);
    if (!parsed.success) throw new Refused(n, 'the key rotation names no previous and next verifier key');
    const [old, next] = [parsed.data.previous, parsed.data.next].map((text) => {
      try {
        return parseVerifierKey(text);
      } catch (err) {
        throw new Refused(n, `the key rotation's key "${text}" is no verifier key: ${(err as Error).message}`);
      }
    }) as [NoteKey, NoteKey];
    // A rotation from a key not trusted introduces nothing: the auditor may trust the new key directly.
    if (this.keys.holds(old) && !this.keys.holds(next)) this.rotation = { n, old, next };
  }

  private signed({ n, data, position }: Line): VerifiedCheckpoint {
    const parsed = signedCheckpointSchema.safeParse(data);
    if (!parsed.success) throw new Refused(n, 'the checkpoint holds no note, size and position');
    const { note, size } = parsed.data;
    const rotation = this.rotation;
    let opened: ReturnType<TrustedKeys['open']>;
    try {
      opened = this.keys.open(note, rotation ? [rotation.next] : []);
    } catch (err) {
      if (!(err instanceof MalformedNote)) throw err;
      throw new Refused(n, `the checkpoint at position ${position} does not verify: ${err.message}`);
    }
    if (rotation) {
      const signedBy = (key: NoteKey) => opened.signedBy.some((k) => k.verifierKey === key.verifierKey);
      if (!signedBy(rotation.old) || !signedBy(rotation.next)) {
        throw new Refused(
          n,
          `the checkpoint after the key rotation on line ${rotation.n} is not signed by both the old key and the new one: the new key ${rotation.next.name}+${rotation.next.hash} is not to be trusted`,
        );
      }
      this.keys.add(rotation.next);
      this.rotation = null;
    }
    let head: ReturnType<typeof parseTreeHead>;
    try {
      head = parseTreeHead(opened.text);
    } catch (err) {
      throw new Refused(n, `the checkpoint's note is not a checkpoint: ${(err as Error).message}`);
    }
    if (head.size !== size)
      throw new Refused(n, `the checkpoint says size ${size} beside a note signed for size ${head.size}`);
    this.covers(n, size, parsed.data.position, (at) => at.root.equals(head.root));
    return { size, time: head.time, root: head.root, note, origin: head.origin };
  }

  private legacy({ n, data, position }: Line): VerifiedCheckpoint {
    const parsed = legacyCheckpointSchema.safeParse(data);
    if (!parsed.success) throw new Refused(n, `checkpoint at position ${position} is not one the checkpointer writes`);
    const c = parsed.data;
    if (!this.keys.holdsLegacySignature(checkpointPayload(c), c.signature)) {
      throw new Refused(
        n,
        `checkpoint ${c.number} at position ${position} does not verify: it was changed or forged, or signed with another key`,
      );
    }
    // Signed over digest leaves where it was deployed, over the full leaves since: either binds the events.
    this.covers(
      n,
      c.count,
      c.position,
      (at) => at.digestRoot.toString('hex') === c.root || at.root.toString('hex') === c.root,
    );
    return { size: c.count, time: c.signed_at, root: null, note: null, origin: null };
  }

  /** Whether the checkpoint's root and last position are those of the first `size` events above it. */
  private covers(
    n: number,
    size: number,
    position: string,
    holds: (at: NonNullable<ReturnType<LogPrefix['at']>>) => boolean,
  ): void {
    const at = this.prefix.at(size);
    if (size > this.prefix.count)
      this.fromStart(
        new Refused(
          n,
          `the checkpoint signs ${size} events, more than the ${this.prefix.count} lines above it: events were taken out`,
        ),
      );
    else if (!at)
      this.fromStart(
        new Refused(
          n,
          `the checkpoint signs the first ${size} events, too far above it to check (${this.prefix.count} events read)`,
        ),
      );
    else if (!holds(at) || (at.position !== null && at.position !== position)) {
      this.fromStart(
        new Refused(
          n,
          `the checkpoint signed ${size} events up to position ${position}, and the lines above it differ: an event up to it was changed, taken out or reordered`,
        ),
      );
    }
  }

  /** A rotation whose next checkpoint never came: its new key was never trusted. */
  get pendingRotation(): number | null {
    return this.rotation?.n ?? null;
  }
}
